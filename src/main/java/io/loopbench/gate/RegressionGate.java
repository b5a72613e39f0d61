package io.loopbench.gate;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.Stat;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.reports.CaseResult;
import io.loopbench.reports.Comparisons;
import io.loopbench.verdicts.Difference;
import io.loopbench.verdicts.VerdictRule;
import io.loopbench.verdicts.Verdicts;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Did the candidate regress against the baseline by more than a threshold, case by case, in throughput or in p99?
 * For each matched case and metric, two one-sided rank tests on log values, the candidate's shifted by the threshold
 * — Mann–Whitney's U test on the two sides' repetitions, or, when they are paired (repetition i of each ran back to
 * back, so that a drift of the machine falls on both alike), Wilcoxon's signed-rank test on the pairs' log ratios:
 * one for "worse by more than the threshold" (a regression), decided over
 * every case and metric as one Holm family at {@code alpha}, so that the chance of naming any regression when none
 * beyond the threshold exists is at most {@code alpha}; one for "not worse by as much as the threshold", which must
 * hold for every case and metric, each at {@code alpha} (an intersection–union test, so that the chance of passing
 * a candidate that regressed beyond the threshold in any of them is at most {@code alpha}). Regressed beyond the
 * threshold means a throughput ratio under 1 ÷ (1 + threshold), or a p99 ratio over 1 + threshold, as the verdicts'
 * minimum effect is read. A repetition whose figures carry a warning (not JIT-quiet, window not kept full, …) is
 * left out, and with it its pair; a case recorded before the self-checks existed, that failed on either side or that
 * is on one side only decides nothing, and the gate then cannot pass. Unpaired, the two sides ran at different
 * times, and a drift of the machine between them is part of what the tests see. Stateless.
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
        /** Neither: too few clean repetitions, failed or unmatched cases, or figures too spread to tell. */
        UNDECIDED(2);

        private final int exitCode;

        Verdict(int exitCode) {
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }

    /** What one metric of one case shows. */
    public enum Outcome implements Labeled {
        /** Worse by more than the threshold, established over the gate's family. */
        REGRESSED,
        /** Shown not worse by as much as the threshold. */
        WITHIN,
        /** Neither. */
        UNDECIDED
    }

    /**
     * One metric of one case.
     *
     * @param metric         {@code throughput} (round trips/s) or {@code p99} (µs)
     * @param leftOut        repetitions left out because their figures (or, paired, their pair's) carry warnings
     * @param baselineMedian the baseline's median over its passed repetitions
     * @param candidateMedian the candidate's median
     * @param difference     candidate ÷ baseline: estimate and 95 % interval, by the same test as the checks
     * @param regressionP    one-sided p of "worse by more than the threshold"
     * @param adjustedRegressionP the same, Holm-adjusted over the gate's family; null for a case that decides nothing
     * @param withinP        one-sided p of "not worse by as much as the threshold"
     * @param outcome        regressed, within or undecided
     * @param words          the outcome with its figures
     */
    public record Check(String metric, int leftOut, double baselineMedian, double candidateMedian,
                        Difference difference,
                        double regressionP, Double adjustedRegressionP, double withinP, Outcome outcome,
                        String words) {
    }

    /** One metric of one case as tested, before the family decides it. */
    private record Tested(String metric, int leftOut, double baselineMedian, double candidateMedian,
                          Difference difference, double regressionP, double withinP) {
    }

    /** One matched case as tested. */
    private record TestedCase(String name, List<Tested> tests, List<String> warnings, boolean judged) {
    }

    /**
     * One matched case.
     *
     * @param name     the case, as reports name it
     * @param checks   throughput, then p99
     * @param warnings what makes either side's figures doubtful, each prefixed with its side (its repetitions are
     *                 left out)
     * @param judged   false for a case that decides nothing: recorded before the self-checks existed, or profiled on one
     *                 side only (the profiler's cost would be read as a difference)
     */
    public record CaseGate(String name, List<Check> checks, List<String> warnings, boolean judged) {
    }

    /**
     * @param verdict     what the gate concludes
     * @param exitCode    0 passed, 1 regressed, 2 undecided
     * @param threshold   the regression allowed, as a fraction (0.05: 5 %)
     * @param alpha       the error rate of each conclusion
     * @param paired      whether repetition i of each side was matched with repetition i of the other
     * @param method      the tests, in words
     * @param reasons     why the gate is undecided (or, when regressed, what else it could not judge); empty when
     *                    it passed
     * @param cases       every matched case that passed on both sides
     * @param failedCases cases left out because a side failed, with that side's reason
     * @param unmatched   cases present on one side only
     */
    public record Result(String baselineId, String candidateId, Verdict verdict, int exitCode, double threshold,
                         double alpha, boolean paired, String method, List<String> reasons, List<CaseGate> cases,
                         List<String> failedCases, List<String> unmatched) {
    }

    /**
     * Judges candidate against baseline by {@code rule}: its alpha, and its minimum effect as the threshold.
     * {@code paired}: repetition i of each side ran back to back, and is matched with the other's.
     */
    public static Result judge(String baselineId, List<CaseResult> baseline, String candidateId,
                               List<CaseResult> candidate, VerdictRule rule, boolean paired) {
        double threshold = rule.minimumEffect();
        Comparisons.Matching matching = Comparisons.match(baseline, candidate);
        List<String> failed = new ArrayList<>();
        List<TestedCase> cases = new ArrayList<>();
        List<String> unjudged = new ArrayList<>();
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
            String profiling = Comparisons.profilingDiffers(b, c);
            if (profiling != null) {
                warnings.add(profiling);
            }
            String unjudgedBecause = b.predatesSelfChecks() || c.predatesSelfChecks()
                    ? "recorded before the self-checks existed, so nothing says its figures are clean" : profiling;
            if (unjudgedBecause != null) {
                unjudged.add(Comparisons.describe(b) + ": " + unjudgedBecause);
            }
            cases.add(new TestedCase(Comparisons.describe(b), List.of(
                    test("throughput", b, c, RepetitionResult::roundTripsPerSecond, true, rule, paired),
                    test("p99", b, c, r -> r.latency() == null ? null : r.latency().p99Us(), false, rule, paired)),
                    List.copyOf(warnings), unjudgedBecause == null));
        }
        List<CaseGate> decided = holm(cases, rule.alpha(), threshold);
        List<String> reasons = new ArrayList<>();
        if (decided.isEmpty()) {
            reasons.add("no case passed on both sides");
        }
        reasons.addAll(unjudged);
        failed.forEach(f -> reasons.add("failed: " + f));
        matching.unmatched().forEach(u -> reasons.add("on one side only: " + u));
        decided.stream().filter(CaseGate::judged).forEach(g -> g.checks().stream()
                .filter(k -> k.outcome() == Outcome.UNDECIDED)
                .forEach(k -> reasons.add(g.name() + ", " + k.metric() + ": " + k.words())));
        boolean regressed = decided.stream().anyMatch(g -> g.checks().stream()
                .anyMatch(k -> k.outcome() == Outcome.REGRESSED));
        Verdict verdict = regressed ? Verdict.REGRESSED : reasons.isEmpty() ? Verdict.PASSED : Verdict.UNDECIDED;
        return new Result(baselineId, candidateId, verdict, verdict.exitCode(), threshold, rule.alpha(), paired,
                method(threshold, rule.alpha(), paired), List.copyOf(reasons), decided, List.copyOf(failed),
                matching.unmatched());
    }

    static String method(double threshold, double alpha, boolean paired) {
        return String.format(Locale.ROOT, "per case, throughput and p99: one-sided " + (paired
                ? "Wilcoxon signed-rank tests on the log ratios of the repetitions paired as they ran, back to back,"
                : "Mann–Whitney U tests on the repetitions' log values,")
                + " the candidate's shifted by the threshold (a throughput ratio under "
                + "1 ÷ %.2f or a p99 ratio over %.2f is a regression); a regression is established when its p, "
                + "Holm-adjusted over every case and metric, is at most %s; the gate passes when every case "
                + "and metric is shown not to have regressed that far, each at %s" + (paired ? "; a drift of the "
                + "machine falls on both repetitions of a pair alike" : "; the two sides ran at different times, so "
                + "a drift of the machine between them counts as a difference (pair them to cancel it)"),
                1 + threshold, 1 + threshold, alpha, alpha);
    }

    /**
     * One metric: {@code higherIsBetter} for throughput. The regression bound is 1 ÷ (1 + threshold) for throughput
     * and 1 + threshold for p99.
     */
    private static Tested test(String metric, CaseResult b, CaseResult c, Function<RepetitionResult, Double> of,
                               boolean higherIsBetter, VerdictRule rule, boolean paired) {
        double bound = higherIsBetter ? 1 / (1 + rule.minimumEffect()) : 1 + rule.minimumEffect();
        Predicate<RepetitionResult> usable = r -> Comparisons.usable(r, of);
        Predicate<RepetitionResult> clean = r -> usable.test(r) && r.warnings().isEmpty();
        double[] x;
        double[] y;
        int leftOut;
        if (paired) {
            List<RepetitionResult[]> pairs = b.matchedWith(c, clean);
            x = pairs.stream().mapToDouble(p -> of.apply(p[0])).toArray();
            y = pairs.stream().mapToDouble(p -> of.apply(p[1])).toArray();
            leftOut = b.matchedWith(c, usable).size() - pairs.size();
        } else {
            x = b.repetitions().stream().filter(clean).mapToDouble(of::apply).toArray();
            y = c.repetitions().stream().filter(clean).mapToDouble(of::apply).toArray();
            leftOut = (int) (b.repetitions().stream().filter(usable).count()
                    + c.repetitions().stream().filter(usable).count()) - x.length - y.length;
        }
        Difference d = paired ? Verdicts.paired(x, y, rule) : Verdicts.unpaired(x, y, false, rule);
        return new Tested(metric, leftOut, median(x), median(y), d, beyond(x, y, bound, higherIsBetter, paired),
                beyond(x, y, bound, !higherIsBetter, paired));
    }

    private static double beyond(double[] x, double[] y, double bound, boolean below, boolean paired) {
        return paired ? Verdicts.beyondPaired(x, y, bound, below) : Verdicts.beyond(x, y, bound, below);
    }

    /** The judged cases' regression tests as one Holm family; every test then gets its outcome and words. */
    private static List<CaseGate> holm(List<TestedCase> cases, double alpha, double threshold) {
        double[] adjusted = Verdicts.holm(cases.stream().filter(TestedCase::judged)
                .flatMap(g -> g.tests().stream()).mapToDouble(Tested::regressionP).toArray());
        List<CaseGate> out = new ArrayList<>();
        int next = 0;
        for (TestedCase g : cases) {
            List<Check> checks = new ArrayList<>();
            for (Tested k : g.tests()) {
                checks.add(decided(k, g.judged() ? adjusted[next++] : null, alpha, threshold));
            }
            out.add(new CaseGate(g.name(), List.copyOf(checks), g.warnings(), g.judged()));
        }
        return out;
    }

    private static Check decided(Tested k, Double adjusted, double alpha, double threshold) {
        Difference d = k.difference();
        double smallest = Verdicts.minimumOneSidedPValue(d.paired(), d.baselineSize(), d.candidateSize());
        String ratio = String.format(Locale.ROOT, "%.3f×", d.ratio()) + (d.lower() == null || d.upper() == null
                ? "" : String.format(Locale.ROOT, " (95 %% interval %.3f–%.3f)", d.lower(), d.upper()));
        String allowed = String.format(Locale.ROOT, "%.0f %%", threshold * 100);
        Outcome outcome;
        String words;
        if (adjusted == null) {
            outcome = Outcome.UNDECIDED;
            words = ratio + ", undecided: recorded before the self-checks existed";
        } else if (adjusted <= alpha) {
            outcome = Outcome.REGRESSED;
            words = ratio + String.format(Locale.ROOT, ", regressed by more than %s (p %.4f, Holm-adjusted %.4f)",
                    allowed, k.regressionP(), adjusted);
        } else if (k.withinP() <= alpha) {
            outcome = Outcome.WITHIN;
            words = ratio + String.format(Locale.ROOT, ", not regressed by %s or more (p %.4f)", allowed,
                    k.withinP());
        } else if (smallest > alpha) {
            outcome = Outcome.UNDECIDED;
            words = ratio + String.format(Locale.ROOT, ", undecided: too few repetitions (%s: no test can give a p "
                    + "under %.4f, over %s)", d.paired() ? d.baselineSize() + " pairs"
                    : d.baselineSize() + " and " + d.candidateSize(), smallest, alpha);
        } else {
            outcome = Outcome.UNDECIDED;
            words = ratio + String.format(Locale.ROOT, ", undecided: neither a regression beyond %s nor its absence "
                    + "is shown (p %.4f and %.4f)", allowed, k.regressionP(), k.withinP());
        }
        String leftOut = k.leftOut() == 0 ? "" : String.format(Locale.ROOT, " (%d %s left out: %s)", k.leftOut(),
                d.paired() ? (k.leftOut() == 1 ? "pair" : "pairs") : (k.leftOut() == 1 ? "repetition" : "repetitions"),
                "figures with warnings");
        return new Check(k.metric(), k.leftOut(), k.baselineMedian(), k.candidateMedian(), d, k.regressionP(),
                adjusted, k.withinP(), outcome, words + leftOut);
    }

    /** The median of a metric's values; NaN without any. */
    private static double median(double[] values) {
        return values.length == 0 ? Double.NaN : Stat.of(Arrays.stream(values).boxed().toList()).median();
    }
}
