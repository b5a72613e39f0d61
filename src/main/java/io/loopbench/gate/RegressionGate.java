package io.loopbench.gate;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.Stat;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.reports.CaseResult;
import io.loopbench.reports.Comparisons;
import io.loopbench.verdicts.ConfidenceSequence;
import io.loopbench.verdicts.Decision;
import io.loopbench.verdicts.Difference;
import io.loopbench.verdicts.NoiseFloor;
import io.loopbench.verdicts.SequentialVerdicts;
import io.loopbench.verdicts.VerdictRule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Did the candidate regress against the baseline by more than a threshold, case by case, in throughput or in p99?
 * For each matched case and metric, an anytime-valid confidence sequence ({@link ConfidenceSequence}) for candidate ÷
 * baseline on log values — over the pairs' log ratios when paired (repetition i of each side ran back to back, so that
 * a drift of the machine falls on both alike), else over the two sides' repetitions — each at alpha ÷ (cases × 2)
 * (Bonferroni), with the machine's noise floor for the case's protocol and metric. A metric has regressed when the
 * whole interval lies beyond the threshold on the worse side, and is within it when the whole interval lies on the
 * better side of the threshold, either decision surviving any one pair left out. Both hold at every look, so the gate
 * may be asked again after every pair and stopped when it decides: the chance of naming any regression when none
 * beyond the threshold exists, or of passing a candidate that regressed beyond it, is at most alpha however often it
 * is asked. Regressed beyond the threshold means a throughput ratio under 1 ÷ (1 + threshold), or a p99 ratio over
 * 1 + the p99 threshold (its own, wider by default: p99 spreads more between JVMs). A repetition whose figures carry a
 * warning (not JIT-quiet, window not kept full, …) is left out, and with it its pair; a case recorded before the
 * self-checks existed, that failed on either side or that is on one side only decides nothing, and the gate then
 * cannot pass. Unpaired, the two sides ran at different times, and a drift of the machine between them is part of
 * what the intervals see. Stateless.
 */
public final class RegressionGate {

    /** The p99 threshold by default: p99's spread between JVMs is about twice throughput's (NoiseFloor). */
    public static final double DEFAULT_P99_THRESHOLD = 0.10;

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
     * @param difference     candidate ÷ baseline: estimate and interval, at the gate's level per check
     * @param regressionP    anytime-valid p of "not worse than the threshold" (1 ÷ the e-value)
     * @param adjustedRegressionP the same × the checks judged (Bonferroni); null for a case that decides nothing
     * @param withinP        anytime-valid p of "worse by the threshold or more"
     * @param outcome        regressed, within or undecided
     * @param words          the outcome with its figures
     */
    public record Check(String metric, int leftOut, double baselineMedian, double candidateMedian,
                        Difference difference,
                        double regressionP, Double adjustedRegressionP, double withinP, Outcome outcome,
                        String words) {
    }

    /** One metric of one case as tested. */
    private record Tested(String metric, int leftOut, double baselineMedian, double candidateMedian,
                          Difference difference, SequentialVerdicts.Beyond regression, SequentialVerdicts.Beyond within,
                          double threshold) {
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
     * @param threshold   the throughput regression allowed, as a fraction (0.05: 5 %)
     * @param p99Threshold the p99 regression allowed
     * @param alpha       the error rate of each conclusion, over every check and every time the gate is asked
     * @param checkLevel  the level of each check: alpha ÷ the checks judged
     * @param pairs       pairs (paired) or the fewest repetitions a side (unpaired) the checks saw
     * @param paired      whether repetition i of each side was matched with repetition i of the other
     * @param method      the tests, in words
     * @param reasons     why the gate is undecided (or, when regressed, what else it could not judge); empty when
     *                    it passed
     * @param cases       every matched case that passed on both sides
     * @param failedCases cases left out because a side failed, with that side's reason
     * @param unmatched   cases present on one side only
     */
    public record Result(String baselineId, String candidateId, Verdict verdict, int exitCode, double threshold,
                         double p99Threshold, double alpha, double checkLevel, boolean paired, int pairs,
                         String method, List<String> reasons, List<CaseGate> cases, List<String> failedCases,
                         List<String> unmatched) {
    }

    /**
     * Judges candidate against baseline by {@code rule}: its alpha, and its minimum effect as the throughput threshold.
     * {@code paired}: repetition i of each side ran back to back, and is matched with the other's.
     */
    public static Result judge(String baselineId, List<CaseResult> baseline, String candidateId,
                               List<CaseResult> candidate, VerdictRule rule, double p99Threshold, boolean paired) {
        double threshold = rule.minimumEffect();
        Comparisons.Matching matching = Comparisons.match(baseline, candidate);
        long judgedCases = matching.pairs().stream()
                .filter(p -> p[0].ok() && p[1].ok() && unjudgedBecause(p[0], p[1]) == null).count();
        double level = rule.alpha() / Math.max(1, 2 * judgedCases);
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
            String unjudgedBecause = unjudgedBecause(b, c);
            if (unjudgedBecause != null) {
                unjudged.add(Comparisons.describe(b) + ": " + unjudgedBecause);
            }
            cases.add(new TestedCase(Comparisons.describe(b), List.of(
                    test("throughput", b, c, rep -> rep.throughput().roundTripsPerSecond(), threshold, level, paired),
                    test("p99", b, c, r -> r.rtt().latency() == null ? null : r.rtt().latency().p99Us(),
                            p99Threshold, level, paired)),
                    List.copyOf(warnings), unjudgedBecause == null));
        }
        List<CaseGate> decided = cases.stream().map(g -> new CaseGate(g.name(), g.tests().stream()
                .map(k -> decided(k, g.judged(), judgedCases)).toList(), g.warnings(), g.judged())).toList();
        int pairs = decided.stream().filter(CaseGate::judged).flatMap(g -> g.checks().stream())
                .mapToInt(k -> Math.min(k.difference().baselineSize(), k.difference().candidateSize())).min()
                .orElse(0);
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
        return new Result(baselineId, candidateId, verdict, verdict.exitCode(), threshold, p99Threshold,
                rule.alpha(), level, paired, pairs, method(threshold, p99Threshold, rule.alpha(), level, paired),
                List.copyOf(reasons), decided, List.copyOf(failed), matching.unmatched());
    }

    /**
     * Why a passed case decides nothing, or null when it does: recorded before the self-checks existed, or profiled
     * on one side only (the profiler's cost would be read as a difference).
     */
    private static String unjudgedBecause(CaseResult b, CaseResult c) {
        return b.predatesSelfChecks() || c.predatesSelfChecks()
                ? "recorded before the self-checks existed, so nothing says its figures are clean"
                : Comparisons.profilingDiffers(b, c);
    }

    static String method(double threshold, double p99Threshold, double alpha, double level, boolean paired) {
        return String.format(Locale.ROOT, "per case, throughput and p99: an anytime-valid confidence sequence "
                + "(Howard et al. 2021, normal mixture) on " + (paired
                ? "the log ratios of the repetitions paired as they ran, back to back,"
                : "the two sides' log values,")
                + " at %s %% coverage each (alpha %s ÷ the checks, Bonferroni), its noise the machine's floor for the "
                + "protocol or the data's spread where larger; a throughput ratio under 1 ÷ %.2f or a p99 ratio over "
                + "%.2f is a regression, established when the whole interval lies beyond it, and a check passes when "
                + "the whole interval lies on the better side, either surviving any one pair left out; the "
                + "intervals hold at every look, so the gate may be asked after every pair and stopped once decided"
                + (paired ? "; a drift of the machine falls on both repetitions of a pair alike" : "; the two sides "
                + "ran at different times, so a drift of the machine between them counts as a difference (pair "
                + "them to cancel it)"), Difference.percent(1 - level), alpha, 1 + threshold, 1 + p99Threshold);
    }

    /**
     * One metric, throughput (higher is better) or p99: the regression bound is 1 ÷ (1 + threshold) for throughput
     * and 1 + threshold for p99.
     */
    private static Tested test(String metric, CaseResult b, CaseResult c, Function<RepetitionResult, Double> of,
                               double threshold, double level, boolean paired) {
        boolean higherIsBetter = metric.equals("throughput");
        double bound = higherIsBetter ? 1 / (1 + threshold) : 1 + threshold;
        int worse = higherIsBetter ? -1 : 1;
        Predicate<RepetitionResult> hasFigure = r -> Comparisons.hasFigure(r, of);
        Predicate<RepetitionResult> clean = r -> hasFigure.test(r) && r.clean();
        double[] x;
        double[] y;
        int leftOut;
        if (paired) {
            List<RepetitionResult[]> pairs = b.matchedWith(c, clean);
            x = pairs.stream().mapToDouble(p -> of.apply(p[0])).toArray();
            y = pairs.stream().mapToDouble(p -> of.apply(p[1])).toArray();
            leftOut = b.matchedWith(c, hasFigure).size() - pairs.size();
        } else {
            x = b.repetitions().stream().filter(clean).mapToDouble(of::apply).toArray();
            y = c.repetitions().stream().filter(clean).mapToDouble(of::apply).toArray();
            leftOut = (int) (b.repetitions().stream().filter(hasFigure).count()
                    + c.repetitions().stream().filter(hasFigure).count()) - x.length - y.length;
        }
        ConfidenceSequence.Noise noise = NoiseFloor.between(b.spec(), c.spec(), higherIsBetter
                ? NoiseFloor.Metric.THROUGHPUT : NoiseFloor.Metric.P99, NoiseFloor.GATE_ROUNDS);
        VerdictRule rule = new VerdictRule(level, threshold);
        Difference d = paired ? SequentialVerdicts.paired(x, y, noise, rule)
                : SequentialVerdicts.unpaired(x, y, noise, rule, null);
        return new Tested(metric, leftOut, median(x), median(y), d,
                SequentialVerdicts.beyond(x, y, paired, noise, level, bound, worse),
                SequentialVerdicts.beyond(x, y, paired, noise, level, bound, -worse), threshold);
    }

    private static Check decided(Tested k, boolean judged, long checksOf) {
        Difference d = k.difference();
        String ratio = String.format(Locale.ROOT, "%.3f×", d.ratio()) + (d.lower() == null || d.upper() == null
                ? "" : String.format(Locale.ROOT, " (%s %% interval %.3f–%.3f)", Difference.percent(d.coverage()),
                d.lower(), d.upper()));
        String allowed = String.format(Locale.ROOT, "%.0f %%", k.threshold() * 100);
        double adjusted = Math.min(1, k.regression().pValue() * Math.max(1, 2 * checksOf));
        Outcome outcome;
        String words;
        String of = d.paired() ? d.baselineSize() + " pairs" : d.baselineSize() + " and " + d.candidateSize();
        if (!judged) {
            outcome = Outcome.UNDECIDED;
            words = ratio + ", undecided: recorded before the self-checks existed";
        } else if (k.regression().established()) {
            outcome = Outcome.REGRESSED;
            words = ratio + String.format(Locale.ROOT, ", regressed by more than %s (over %s; anytime p %.4f, × the "
                    + "checks %.4f)", allowed, of, k.regression().pValue(), adjusted);
        } else if (k.within().established()) {
            outcome = Outcome.WITHIN;
            words = ratio + String.format(Locale.ROOT, ", not regressed by %s or more (over %s; anytime p %.4f)",
                    allowed, of, k.within().pValue());
        } else if (d.decision() == Decision.TOO_FEW_REPETITIONS) {
            outcome = Outcome.UNDECIDED;
            words = ratio + String.format(Locale.ROOT, ", undecided: too few repetitions (%s; at least %d %s)", of,
                    d.needed(), d.paired() ? "pairs" : "a side");
        } else {
            outcome = Outcome.UNDECIDED;
            words = ratio + String.format(Locale.ROOT, ", undecided after %s: the interval still straddles the %s "
                    + "threshold; another pair may decide", of, allowed);
        }
        String leftOut = k.leftOut() == 0 ? "" : String.format(Locale.ROOT, " (%d %s left out: %s)", k.leftOut(),
                d.paired() ? (k.leftOut() == 1 ? "pair" : "pairs") : (k.leftOut() == 1 ? "repetition" : "repetitions"),
                "figures with warnings");
        return new Check(k.metric(), k.leftOut(), k.baselineMedian(), k.candidateMedian(), d,
                k.regression().pValue(), judged ? adjusted : null, k.within().pValue(), outcome, words + leftOut);
    }

    /** The median of a metric's values; NaN without any. */
    private static double median(double[] values) {
        return values.length == 0 ? Double.NaN : Stat.of(Arrays.stream(values).boxed().toList()).median();
    }
}
