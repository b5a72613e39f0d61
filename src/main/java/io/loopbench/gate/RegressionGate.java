package io.loopbench.gate;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.reports.CaseResult;
import io.loopbench.reports.Comparisons;
import io.loopbench.verdicts.Difference;
import io.loopbench.verdicts.VerdictRule;
import io.loopbench.verdicts.Verdicts;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Did the candidate regress against the baseline by more than a threshold, case by case, in throughput or in p99?
 * For each matched case and metric, two one-sided Mann–Whitney U tests on the repetitions' log values, the
 * candidate's shifted by the threshold: one for "worse by more than the threshold" (a regression), decided over
 * every case and metric as one Holm family at {@code alpha}, so that the chance of naming any regression when none
 * beyond the threshold exists is at most {@code alpha}; one for "not worse by as much as the threshold", which must
 * hold for every case and metric, each at {@code alpha} (an intersection–union test, so that the chance of passing
 * a candidate that regressed beyond the threshold in any of them is at most {@code alpha}). Regressed beyond the
 * threshold means a throughput ratio under 1 ÷ (1 + threshold), or a p99 ratio over 1 + threshold, as the verdicts'
 * minimum effect is read. A case whose figures carry warnings, that failed on either side or that is on one side
 * only decides nothing, and the gate then cannot pass. The two sides ran at different times: a drift of the machine
 * between them is part of what the tests see. Stateless.
 */
public final class RegressionGate {

    private RegressionGate() {
    }

    /** What the gate concludes; its exit code is the CLI's. */
    public enum Verdict implements Labeled {
        /** Every case and metric shown not worse than the threshold. */
        PASSED(0),
        /** A regression beyond the threshold is established in at least one case and metric. */
        REGRESSED(1),
        /** Neither: too few repetitions, warnings, failed or unmatched cases, or figures too spread to tell. */
        UNDECIDED(2);

        private final int exitCode;

        Verdict(int exitCode) {
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }

    /**
     * One metric of one case.
     *
     * @param metric         {@code throughput} (round trips/s) or {@code p99} (µs)
     * @param baselineMedian the baseline's median over its passed repetitions
     * @param candidateMedian the candidate's median
     * @param difference     candidate ÷ baseline: estimate and 95 % interval (Mann–Whitney, unmatched)
     * @param regressionP    one-sided p of "worse by more than the threshold"
     * @param adjustedRegressionP the same, Holm-adjusted over the gate's family; null for a case that decides nothing
     * @param withinP        one-sided p of "not worse by as much as the threshold"
     * @param outcome        {@code regressed}, {@code within} or {@code undecided}
     * @param words          the outcome with its figures
     */
    public record Check(String metric, double baselineMedian, double candidateMedian, Difference difference,
                        double regressionP, Double adjustedRegressionP, double withinP, String outcome,
                        String words) {
    }

    /**
     * One matched case.
     *
     * @param name     the case, as reports name it
     * @param checks   throughput, then p99
     * @param warnings what makes either side's figures doubtful, each prefixed with its side; such a case decides
     *                 nothing
     */
    public record CaseGate(String name, List<Check> checks, List<String> warnings) {
    }

    /**
     * @param verdict     what the gate concludes
     * @param exitCode    0 passed, 1 regressed, 2 undecided
     * @param threshold   the regression allowed, as a fraction (0.05: 5 %)
     * @param alpha       the error rate of each conclusion
     * @param method      the tests, in words
     * @param reasons     why the gate is undecided (or, when regressed, what else it could not judge); empty when
     *                    it passed
     * @param cases       every matched case that passed on both sides
     * @param failedCases cases left out because a side failed, with that side's reason
     * @param unmatched   cases present on one side only
     */
    public record Result(String baselineId, String candidateId, Verdict verdict, int exitCode, double threshold,
                         double alpha, String method, List<String> reasons, List<CaseGate> cases,
                         List<String> failedCases, List<String> unmatched) {
    }

    /** Judges candidate against baseline by {@code rule}: its alpha, and its minimum effect as the threshold. */
    public static Result judge(String baselineId, List<CaseResult> baseline, String candidateId,
                               List<CaseResult> candidate, VerdictRule rule) {
        double threshold = rule.minimumEffect();
        Comparisons.Matching matching = Comparisons.match(baseline, candidate);
        List<String> failed = new ArrayList<>();
        List<CaseGate> cases = new ArrayList<>();
        for (CaseResult[] pair : matching.pairs()) {
            CaseResult b = pair[0];
            CaseResult c = pair[1];
            if (!b.ok() || !c.ok()) {
                failed.add(Comparisons.describe(b) + Comparisons.failure("baseline", b)
                        + Comparisons.failure("candidate", c));
                continue;
            }
            List<String> warnings = new ArrayList<>(Comparisons.warnings("baseline", b));
            warnings.addAll(Comparisons.warnings("candidate", c));
            cases.add(new CaseGate(Comparisons.describe(b), List.of(
                    check("throughput", b, c, RepetitionResult::roundTripsPerSecond, true, rule),
                    check("p99", b, c, r -> r.latency() == null ? null : r.latency().p99Us(), false, rule)),
                    List.copyOf(warnings)));
        }
        List<CaseGate> decided = holm(cases, rule.alpha(), threshold);
        List<String> reasons = new ArrayList<>();
        if (decided.isEmpty()) {
            reasons.add("no case passed on both sides");
        }
        decided.stream().filter(g -> !g.warnings().isEmpty()).forEach(g -> reasons.add(g.name() + ": not clean ("
                + g.warnings().size() + (g.warnings().size() == 1 ? " warning" : " warnings") + ")"));
        failed.forEach(f -> reasons.add("failed: " + f));
        matching.unmatched().forEach(u -> reasons.add("on one side only: " + u));
        decided.stream().filter(g -> g.warnings().isEmpty()).forEach(g -> g.checks().stream()
                .filter(k -> k.outcome().equals("undecided"))
                .forEach(k -> reasons.add(g.name() + ", " + k.metric() + ": " + k.words())));
        boolean regressed = decided.stream().anyMatch(g -> g.checks().stream()
                .anyMatch(k -> k.outcome().equals("regressed")));
        Verdict verdict = regressed ? Verdict.REGRESSED : reasons.isEmpty() ? Verdict.PASSED : Verdict.UNDECIDED;
        return new Result(baselineId, candidateId, verdict, verdict.exitCode(), threshold, rule.alpha(),
                method(threshold, rule.alpha()), List.copyOf(reasons), decided, List.copyOf(failed),
                matching.unmatched());
    }

    static String method(double threshold, double alpha) {
        return String.format(Locale.ROOT, "per case, throughput and p99: one-sided Mann–Whitney U tests on the "
                + "repetitions' log values, the candidate's shifted by the threshold (a throughput ratio under "
                + "1 ÷ %.2f or a p99 ratio over %.2f is a regression); a regression is established when its p, "
                + "Holm-adjusted over every clean case and metric, is at most %s; the gate passes when every case "
                + "and metric is shown not to have regressed that far, each at %s; the two sides ran at different "
                + "times, so a drift of the machine between them counts as a difference", 1 + threshold,
                1 + threshold, alpha, alpha);
    }

    /**
     * One metric: {@code higherIsBetter} for throughput. The regression bound is 1 ÷ (1 + threshold) for throughput
     * and 1 + threshold for p99.
     */
    private static Check check(String metric, CaseResult b, CaseResult c, Function<RepetitionResult, Double> of,
                               boolean higherIsBetter, VerdictRule rule) {
        double[] x = Comparisons.values(b, of);
        double[] y = Comparisons.values(c, of);
        double bound = higherIsBetter ? 1 / (1 + rule.minimumEffect()) : 1 + rule.minimumEffect();
        double regression = Verdicts.beyond(x, y, bound, higherIsBetter);
        double within = Verdicts.beyond(x, y, bound, !higherIsBetter);
        return new Check(metric, median(x), median(y), Verdicts.unpaired(x, y, false, rule), regression, null,
                within, "undecided", "");
    }

    /** The clean cases' regression tests as one Holm family; every check then gets its outcome and words. */
    private static List<CaseGate> holm(List<CaseGate> cases, double alpha, double threshold) {
        List<Check> clean = cases.stream().filter(g -> g.warnings().isEmpty())
                .flatMap(g -> g.checks().stream()).toList();
        int m = clean.size();
        Integer[] order = IntStream.range(0, m).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> clean.get(i).regressionP()));
        double[] adjusted = new double[m];
        double running = 0;
        for (int rank = 0; rank < m; rank++) {
            running = Math.max(running, Math.min(1, (m - rank) * clean.get(order[rank]).regressionP()));
            adjusted[order[rank]] = running;
        }
        List<CaseGate> out = new ArrayList<>();
        int next = 0;
        for (CaseGate g : cases) {
            List<Check> checks = new ArrayList<>();
            for (Check k : g.checks()) {
                Double adj = g.warnings().isEmpty() ? adjusted[next++] : null;
                checks.add(decided(k, adj, alpha, threshold));
            }
            out.add(new CaseGate(g.name(), List.copyOf(checks), g.warnings()));
        }
        return out;
    }

    private static Check decided(Check k, Double adjusted, double alpha, double threshold) {
        Difference d = k.difference();
        double smallest = Verdicts.minimumOneSidedPValue(d.baselineSize(), d.candidateSize());
        String ratio = String.format(Locale.ROOT, "%.3f×", d.ratio()) + (d.lower() == null || d.upper() == null
                ? "" : String.format(Locale.ROOT, " (95 %% interval %.3f–%.3f)", d.lower(), d.upper()));
        String allowed = String.format(Locale.ROOT, "%.0f %%", threshold * 100);
        String outcome;
        String words;
        if (adjusted == null) {
            outcome = "undecided";
            words = ratio + ", undecided: its figures carry warnings";
        } else if (adjusted <= alpha) {
            outcome = "regressed";
            words = ratio + String.format(Locale.ROOT, ", regressed by more than %s (p %.4f, Holm-adjusted %.4f)",
                    allowed, k.regressionP(), adjusted);
        } else if (k.withinP() <= alpha) {
            outcome = "within";
            words = ratio + String.format(Locale.ROOT, ", not regressed by %s or more (p %.4f)", allowed,
                    k.withinP());
        } else if (smallest > alpha) {
            outcome = "undecided";
            words = ratio + String.format(Locale.ROOT, ", undecided: too few repetitions (%d and %d: no test can "
                    + "give a p under %.4f, over %s)", d.baselineSize(), d.candidateSize(), smallest, alpha);
        } else {
            outcome = "undecided";
            words = ratio + String.format(Locale.ROOT, ", undecided: neither a regression beyond %s nor its absence "
                    + "is shown (p %.4f and %.4f)", allowed, k.regressionP(), k.withinP());
        }
        return new Check(k.metric(), k.baselineMedian(), k.candidateMedian(), d, k.regressionP(), adjusted,
                k.withinP(), outcome, words);
    }

    private static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }
}
