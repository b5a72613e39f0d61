package io.loopbench.verdicts;

import java.util.Arrays;

/**
 * The sequential verdicts, for throughput and p99 wherever loopbench decides (races, the gate, reports and
 * comparisons): an anytime-valid {@link ConfidenceSequence} on the log ratios (matched repetitions) or the difference
 * of mean logs (unmatched), which may be looked at after every round and decides a large, consistent gap from two
 * repetitions a side, assuming the machine's {@link NoiseFloor} or the data's spread where larger. The rank tests are
 * {@link Verdicts}'. Stateless.
 */
public final class SequentialVerdicts {

    private SequentialVerdicts() {
    }

    /**
     * Candidate ÷ baseline over matched pairs (element i of each array ran back to back), by the anytime-valid
     * {@link ConfidenceSequence} on their log ratios at coverage 1 − the rule's alpha, so that it may be looked at
     * after every pair and stopped when it decides: established when the interval excludes 1 (and the estimate
     * changes by the minimum effect), equivalent when it lies within the minimum effect of 1, each decision surviving
     * any one pair left out; two pairs at the least. The caller divides alpha over the comparisons it makes together
     * (Bonferroni), looks needing no share of it. Each value must be positive.
     */
    public static Difference paired(double[] baseline, double[] candidate, ConfidenceSequence.Noise noise,
                                              VerdictRule rule) {
        Logs l = Logs.of(baseline, candidate, true, 1);
        return sequential(l.x(), l.y(), true, noise, rule, null);
    }

    /**
     * Candidate ÷ baseline over unmatched repetitions, by the same confidence sequence on the difference of their mean
     * logs. {@code driftBound}: null when the two sides ran alternated, else how far separate runs drift on this
     * machine (0.1: ±10 %): the whole interval must then lie beyond it to establish a difference. Two repetitions a
     * side at the least.
     */
    public static Difference unpaired(double[] baseline, double[] candidate, ConfidenceSequence.Noise noise,
                                                VerdictRule rule, Double driftBound) {
        Logs l = Logs.of(baseline, candidate, false, 1);
        return sequential(l.x(), l.y(), false, noise, rule, driftBound);
    }

    /**
     * {@code values} (one per repetition, each positive) ÷ {@code bound}, by the same confidence sequence on their log
     * ratios to the bound (at the rule's alpha, no minimum effect): established, with a ratio over 1, when the whole
     * interval lies above the bound. {@code noise}: a repetition's scale.
     */
    public static Difference overBound(double[] values, double bound, ConfidenceSequence.Noise noise,
                                                 VerdictRule rule) {
        double shift = Verdicts.log(bound);
        return sequential(Arrays.stream(values).map(v -> Verdicts.log(v) - shift).toArray(), new double[0], true, noise,
                new VerdictRule(rule.alpha(), 0), null);
    }

    /**
     * Anytime-valid evidence that candidate ÷ baseline lies beyond the ratio {@code bound} — below it with
     * {@code direction} −1, above it with +1 — by the same confidence sequence at coverage 1 − {@code level}, over
     * matched pairs ({@code paired}) or unmatched repetitions: the p-value 1 ÷ the mixture's e-value against "at the
     * bound", and whether the whole interval lies beyond the bound in that direction, surviving any one value left
     * out. Each value must be positive.
     */
    public static Beyond beyond(double[] baseline, double[] candidate, boolean paired,
                                            ConfidenceSequence.Noise noise, double level, double bound,
                                            int direction) {
        Logs l = Logs.of(baseline, candidate, paired, bound);
        double[] x = l.x();
        double[] y = l.y();
        if (x.length == 0 || (!paired && y.length == 0)) {
            return new Beyond(1, false);
        }
        ConfidenceSequence.Look look = ConfidenceSequence.look(x, y, noise, level);
        boolean beyond = look.beyond(0) == direction
                && ConfidenceSequence.survives(x, y, look, noise, level, direction, 0);
        boolean sameSide = direction * look.estimate() > 0;
        return new Beyond(sameSide ? Math.min(1, 1 / look.eValue()) : 1, beyond);
    }

    /**
     * Whether a ratio was shown beyond a bound ({@link #beyond}).
     *
     * @param pValue      anytime-valid p of "at the bound" (1 where the estimate lies on the bound's other side)
     * @param established whether the whole interval lies beyond the bound, surviving any one value left out
     */
    public record Beyond(double pValue, boolean established) {
    }

    /**
     * What a confidence sequence compares, on logarithms: paired, x the log ratios candidate ÷ baseline and y empty;
     * unmatched, x the candidate's logs and y the baseline's; x shifted by −Verdicts.log({@code bound}) either way.
     */
    private record Logs(double[] x, double[] y) {

        static Logs of(double[] baseline, double[] candidate, boolean paired, double bound) {
            double shift = Verdicts.log(bound);
            return paired ? new Logs(Arrays.stream(Verdicts.logRatios(baseline, candidate)).map(z -> z - shift).toArray(),
                    new double[0])
                    : new Logs(Arrays.stream(candidate).map(v -> Verdicts.log(v) - shift).toArray(),
                    Arrays.stream(baseline).map(Verdicts::log).toArray());
        }
    }

    private static Difference sequential(double[] x, double[] y, boolean paired, ConfidenceSequence.Noise noise,
                                         VerdictRule rule, Double driftBound) {
        double level = rule.alpha();
        ConfidenceSequence.Look look = ConfidenceSequence.look(x, y, noise, level);
        int least = ConfidenceSequence.LEAST_ROUNDS;
        boolean few = x.length < least || (!paired && y.length < least);
        double drift = driftBound == null ? 0 : Math.log1p(driftBound);
        double minimum = Math.log1p(rule.minimumEffect());
        int beyondDrift = look.beyond(drift);
        int beyondOne = look.beyond(0);
        double ratio = Math.exp(look.estimate());
        Decision decision;
        if (few) {
            decision = Decision.TOO_FEW_REPETITIONS;
        } else if (beyondDrift != 0 && ConfidenceSequence.survives(x, y, look, noise, level, beyondDrift, drift)) {
            decision = rule.exceedsMinimum(ratio) ? Decision.ESTABLISHED : Decision.BELOW_MINIMUM_EFFECT;
        } else if (driftBound != null && beyondOne != 0
                && ConfidenceSequence.survives(x, y, look, noise, level, beyondOne, 0)) {
            decision = Decision.DRIFT_NOT_CONTROLLED;
        } else if (driftBound == null && look.within(minimum)
                && ConfidenceSequence.survives(x, y, look, noise, level, 0, minimum)) {
            decision = Decision.EQUIVALENT;
        } else {
            decision = Decision.NOT_ESTABLISHED;
        }
        double p = Math.min(1, 1 / look.eValue());
        String what = paired ? "paired log ratios" : y.length + " and " + x.length + " log values";
        return new Difference(ratio, few ? null : Verdicts.bound(look.lower()), few ? null : Verdicts.bound(look.upper()), 1 - level, p,
                p, 1, paired, driftBound == null, y.length == 0 ? x.length : y.length, x.length,
                ConfidenceSequence.method(what, x.length + y.length, noise, look.scale(), level), decision,
                few ? least : null, rule.minimumEffect(), driftBound);
    }
}
