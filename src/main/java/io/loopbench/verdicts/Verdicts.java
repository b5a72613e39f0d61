package io.loopbench.verdicts;

import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
import org.apache.commons.statistics.inference.WilcoxonSignedRankTest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.IntStream;

/**
 * Differences between two sets of repetitions of one metric, with a stated error rate. Ratios are compared on
 * logarithms, so that 2× and 0.5× are equally far from 1. Two methods:
 * <ul>
 *   <li>the sequential ones ({@link SequentialVerdicts}), for throughput and p99 wherever loopbench decides (races, the gate, reports
 *   and comparisons): an anytime-valid {@link ConfidenceSequence} on the log ratios (matched repetitions) or the
 *   difference of mean logs (unmatched), which may be looked at after every round and decides a large, consistent
 *   gap from two repetitions a side, assuming the machine's {@link NoiseFloor} or the data's spread where larger;</li>
 *   <li>the rank tests, for CPU profile layers, executions and p99 against a rate curve's bound: Wilcoxon's
 *   signed-rank test on matched log ratios, the Mann–Whitney U test on unmatched ones (Apache Commons Statistics,
 *   exact for small samples; the 95 % interval the set of ratios the same test does not reject, inverted at the
 *   midpoints between its candidate points, the estimate Hodges–Lehmann's). They assume nothing about the shape of
 *   the distribution, which sets the fewest repetitions that can ever decide: 6 pairs, or 4 a side unmatched, for
 *   one comparison at 5 %.</li>
 * </ul>
 * Stateless.
 */
public final class Verdicts {

    private Verdicts() {
    }

    /**
     * Candidate ÷ baseline over matched pairs (element i of each array), alone in its family; see
     * {@link #family(List, VerdictRule)} to decide several together. Each value must be positive.
     */
    public static Difference paired(double[] baseline, double[] candidate, VerdictRule rule) {
        double[] z = logRatios(baseline, candidate);
        double[] walsh = new double[z.length * (z.length + 1) / 2];
        int k = 0;
        for (int i = 0; i < z.length; i++) {
            for (int j = i; j < z.length; j++) {
                walsh[k++] = (z[i] + z[j]) / 2;
            }
        }
        WilcoxonSignedRankTest test = WilcoxonSignedRankTest.withDefaults();
        return decide(new Sample(true, true, z.length, z.length, walsh,
                z.length == 0 ? 1 : p(() -> test.test(z).getPValue()),
                mu -> p(() -> test.withMu(mu).test(z).getPValue()), minimumPValue(true, z.length, z.length),
                "Wilcoxon signed-rank test on " + z.length + " paired log ratios"), 1, rule);
    }

    /**
     * Candidate ÷ baseline over unmatched repetitions, alone in its family. {@code controlled}: whether the two ran
     * alternated (else the machine's drift between them is not controlled, and nothing is established).
     */
    public static Difference unpaired(double[] baseline, double[] candidate, boolean controlled, VerdictRule rule) {
        double[] x = Arrays.stream(candidate).map(Verdicts::log).toArray();
        double[] y = Arrays.stream(baseline).map(Verdicts::log).toArray();
        double[] differences = new double[x.length * y.length];
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < y.length; j++) {
                differences[i * y.length + j] = x[i] - y[j];
            }
        }
        MannWhitneyUTest test = MannWhitneyUTest.withDefaults();
        boolean empty = x.length == 0 || y.length == 0;
        return decide(new Sample(false, controlled, y.length, x.length, differences,
                empty ? 1 : p(() -> test.test(x, y).getPValue()),
                mu -> p(() -> test.withMu(mu).test(x, y).getPValue()),
                minimumPValue(false, y.length, x.length),
                "Mann–Whitney U test on " + y.length + " and " + x.length + " log values"), 1, rule);
    }

    /**
     * Whether {@code values} (one per repetition, each positive) are established under {@code bound}: Wilcoxon's
     * signed-rank test, one-sided, on their log ratios to the bound, rejecting "at or above" at the rule's alpha. Its
     * smallest p-value is 1 ÷ 2ⁿ, so 5 repetitions are the fewest that can establish it at 5 %. A sequence of such
     * tests, each at alpha, taken in a fixed order and stopped at the first that fails keeps the chance of any wrong
     * "under" at alpha over the whole sequence (a fixed-sequence test): no Holm adjustment is needed. Tied values
     * (p99s quantised alike) make Commons Statistics take the normal approximation with its tie correction.
     */
    public static UnderBound under(double[] values, double bound, VerdictRule rule) {
        double p = beyondBound(values, bound, true);
        int needed = 1;
        while (Math.pow(0.5, needed) > rule.alpha()) {
            needed++;
        }
        return new UnderBound(p, values.length, needed, values.length >= needed && p <= rule.alpha(),
                "Wilcoxon signed-rank test, one-sided, on " + values.length + " log ratios to the bound");
    }

    /**
     * One-sided p-value that {@code values} (one per repetition, each positive) lie below {@code bound} — above it
     * when {@code below} is false: Wilcoxon's signed-rank test on their log ratios to the bound, against "at the bound
     * or on its other side". 1 without values.
     */
    public static double beyondBound(double[] values, double bound, boolean below) {
        double[] z = Arrays.stream(values).map(v -> logRatio(v, bound)).toArray();
        WilcoxonSignedRankTest test = WilcoxonSignedRankTest.withDefaults()
                .with(below ? AlternativeHypothesis.LESS_THAN : AlternativeHypothesis.GREATER_THAN);
        return z.length == 0 ? 1 : p(() -> test.test(z).getPValue());
    }

    /**
     * One-sided p-value that candidate ÷ baseline lies beyond {@code bound} — below it when {@code below}, above it
     * otherwise — over unmatched repetitions: the Mann–Whitney U test on log values, the candidate's shifted by
     * log({@code bound}), against "at the bound or on its other side". Its smallest value is
     * {@link #minimumOneSidedPValue}. 1 where either side is empty.
     */
    public static double beyond(double[] baseline, double[] candidate, double bound, boolean below) {
        if (baseline.length == 0 || candidate.length == 0) {
            return 1;
        }
        double[] x = Arrays.stream(candidate).map(Verdicts::log).toArray();
        double[] y = Arrays.stream(baseline).map(Verdicts::log).toArray();
        MannWhitneyUTest test = MannWhitneyUTest.withDefaults().withMu(log(bound))
                .with(below ? AlternativeHypothesis.LESS_THAN : AlternativeHypothesis.GREATER_THAN);
        return p(() -> test.test(x, y).getPValue());
    }

    /**
     * As {@link #beyond}, over matched pairs (element i of each array ran back to back): Wilcoxon's signed-rank test
     * on the per-pair log ratios less log({@code bound}), one-sided. 1 without pairs.
     */
    public static double beyondPaired(double[] baseline, double[] candidate, double bound, boolean below) {
        double shift = log(bound);
        double[] z = Arrays.stream(logRatios(baseline, candidate)).map(r -> r - shift).toArray();
        WilcoxonSignedRankTest test = WilcoxonSignedRankTest.withDefaults()
                .with(below ? AlternativeHypothesis.LESS_THAN : AlternativeHypothesis.GREATER_THAN);
        return z.length == 0 ? 1 : p(() -> test.test(z).getPValue());
    }

    /**
     * The smallest one-sided p-value {@link #beyond} ({@code paired} false: the samples wholly apart) or
     * {@link #beyondPaired} (every pair on one side: 1 ÷ 2ⁿ) can give at these sizes.
     */
    public static double minimumOneSidedPValue(boolean paired, int baseline, int candidate) {
        return minimumPValue(paired, baseline, candidate) / 2;
    }

    /**
     * The same differences decided as one family: p-values Holm-adjusted over all of them, and "too few" judged at
     * the family's strictest threshold (alpha ÷ its size), in the given order.
     */
    public static List<Difference> family(List<Difference> differences, VerdictRule rule) {
        int m = differences.size();
        double[] adjusted = holm(differences.stream().mapToDouble(Difference::pValue).toArray());
        List<Difference> out = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            Difference d = differences.get(i);
            out.add(decision(d, adjusted[i], m, minimumPValue(d.paired(), d.baselineSize(), d.candidateSize()), rule));
        }
        return out;
    }

    /**
     * Holm's step-down adjustment: each p-value multiplied by the number of hypotheses not yet rejected before it in
     * ascending order, kept monotone and at most 1, so that rejecting every adjusted p at most alpha keeps the chance
     * of any false rejection in the family at alpha. In the given order.
     */
    public static double[] holm(double[] pValues) {
        int m = pValues.length;
        Integer[] order = IntStream.range(0, m).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> pValues[i]));
        double[] adjusted = new double[m];
        double running = 0;
        for (int rank = 0; rank < m; rank++) {
            running = Math.max(running, Math.min(1, (m - rank) * pValues[order[rank]]));
            adjusted[order[rank]] = running;
        }
        return adjusted;
    }

    /**
     * The smallest two-sided p-value the test can give at these sizes: every pair on one side (2 ÷ 2ⁿ), or the two
     * samples wholly apart (2 ÷ C(m + n, m)).
     */
    static double minimumPValue(boolean paired, int baseline, int candidate) {
        if (paired) {
            return Math.min(1, 2 / Math.pow(2, baseline));
        }
        double arrangements = 1;
        for (int i = 1; i <= Math.min(baseline, candidate); i++) {
            arrangements = arrangements * (baseline + candidate - Math.min(baseline, candidate) + i) / i;
        }
        return Math.min(1, 2 / arrangements);
    }

    /** Repetitions per side (pairs, when paired) the test needs to reject at {@code threshold}. */
    static int needed(boolean paired, double threshold) {
        int n = 1;
        while (minimumPValue(paired, n, n) > threshold) {
            n++;
        }
        return n;
    }

    private record Sample(boolean paired, boolean controlled, int baselineSize, int candidateSize, double[] points,
                          double pValue, DoubleUnaryOperator pAt, double minimumP, String method) {
    }

    private static Difference decide(Sample s, int family, VerdictRule rule) {
        double estimate = s.points().length == 0 ? 0 : median(s.points());
        double[] interval = s.minimumP() > rule.alpha() ? null : interval(s.points(), estimate, s.pAt(), rule.alpha());
        Difference raw = new Difference(Math.exp(estimate), interval == null ? null : bound(interval[0]),
                interval == null ? null : bound(interval[1]), 1 - rule.alpha(), s.pValue(), s.pValue(), family,
                s.paired(), s.controlled(), s.baselineSize(), s.candidateSize(), s.method(), Decision.NOT_ESTABLISHED, null,
                rule.minimumEffect(), null);
        return decision(raw, s.pValue(), family, s.minimumP(), rule);
    }

    private static Difference decision(Difference d, double adjusted, int family, double minimumP, VerdictRule rule) {
        double threshold = rule.alpha() / family;
        Decision decision;
        Integer needed = null;
        if (minimumP > threshold) {
            decision = Decision.TOO_FEW_REPETITIONS;
            needed = needed(d.paired(), threshold);
        } else if (adjusted <= rule.alpha()) {
            decision = !d.controlled() ? Decision.DRIFT_NOT_CONTROLLED
                    : rule.exceedsMinimum(d.ratio()) ? Decision.ESTABLISHED : Decision.BELOW_MINIMUM_EFFECT;
        } else if (d.controlled() && d.lower() != null && d.upper() != null
                && rule.withinMinimum(d.lower(), d.upper())) {
            decision = Decision.EQUIVALENT;
        } else {
            decision = Decision.NOT_ESTABLISHED;
        }
        return new Difference(d.ratio(), d.lower(), d.upper(), d.coverage(), d.pValue(), adjusted, family, d.paired(),
                d.controlled(), d.baselineSize(), d.candidateSize(), d.method(), decision, needed, d.minimumEffect(),
                d.driftBound());
    }

    /**
     * The shifts the test does not reject at {@code alpha}, as [lower, upper] on logarithms (infinite where
     * unbounded). The p-value changes only at the candidate points, so it is taken at the midpoint of each gap between
     * them; it falls off on both sides of the estimate, so each end is found by bisection.
     */
    private static double[] interval(double[] points, double estimate, DoubleUnaryOperator pAt, double alpha) {
        double[] s = Arrays.stream(points).sorted().distinct().toArray();
        int gaps = s.length + 1; // gap g lies between s[g - 1] and s[g]
        DoubleUnaryOperator at = g -> {
            int i = (int) g;
            double mid = i == 0 ? s[0] - 1 : i == s.length ? s[s.length - 1] + 1 : (s[i - 1] + s[i]) / 2;
            return pAt.applyAsDouble(mid);
        };
        int centre = Math.min(s.length, Math.max(0, Arrays.binarySearch(s, estimate) >= 0
                ? Arrays.binarySearch(s, estimate) : -Arrays.binarySearch(s, estimate) - 1));
        if (at.applyAsDouble(centre) <= alpha) {
            centre = Math.min(s.length, centre + 1);
            if (at.applyAsDouble(centre) <= alpha) {
                return new double[] {estimate, estimate};
            }
        }
        int lo = 0;
        int hi = centre; // first accepted gap in [lo, hi]
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (at.applyAsDouble(mid) > alpha) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        int first = lo;
        lo = centre;
        hi = gaps - 1; // last accepted gap in [lo, hi]
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (at.applyAsDouble(mid) > alpha) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        int last = lo;
        return new double[] {first == 0 ? Double.NEGATIVE_INFINITY : s[first - 1],
                last == gaps - 1 ? Double.POSITIVE_INFINITY : s[last]};
    }

    /**
     * A test's p-value; 1 where the test has nothing to rank (every difference zero, every value tied), which rejects
     * nothing.
     */
    private static double p(DoubleSupplier test) {
        try {
            double p = test.getAsDouble();
            return Double.isNaN(p) ? 1 : p;
        } catch (IllegalArgumentException | ArithmeticException e) {
            return 1;
        }
    }

    static Double bound(double log) {
        return Double.isInfinite(log) ? null : Math.exp(log);
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    /** Each pair's log ratio, candidate ÷ baseline. */
    static double[] logRatios(double[] baseline, double[] candidate) {
        if (baseline.length != candidate.length) {
            throw new IllegalArgumentException("pairs need as many baseline as candidate values: " + baseline.length
                    + " and " + candidate.length);
        }
        return IntStream.range(0, baseline.length).mapToDouble(i -> logRatio(candidate[i], baseline[i])).toArray();
    }

    private static double logRatio(double candidate, double baseline) {
        return log(candidate) - log(baseline);
    }

    static double log(double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("a ratio needs positive finite values, was " + value);
        }
        return Math.log(value);
    }
}
