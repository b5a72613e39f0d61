package io.loopbench.reports;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.profile.Layer;
import io.loopbench.engine.profile.ProfileDifference;
import io.loopbench.engine.spec.Profiling;
import io.loopbench.verdicts.ConfidenceSequence;
import io.loopbench.verdicts.Difference;
import io.loopbench.verdicts.NoiseFloor;
import io.loopbench.verdicts.SequentialVerdicts;
import io.loopbench.verdicts.VerdictRule;
import io.loopbench.verdicts.Verdicts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Baseline versus candidate, case by case: for throughput (round trips/s) and p99, the ratio candidate ÷ baseline
 * with its interval and a decision, by the anytime-valid confidence sequence of {@link Verdicts} (the machine's noise
 * floor for the case's protocol, or the data's spread where larger; two repetitions a side at the least, so a run's
 * default three can decide a large, consistent gap). Cases of one matrix are matched repetition by repetition
 * (repetition r of each ran in the same round, in alternated order); two runs or matrices measured at different times
 * are compared unmatched, and since the machine drifts between separate runs, a difference is established only when
 * its whole interval lies beyond that drift ({@link NoiseFloor#drift}, calibrated by A/A runs), the words naming the
 * bound it cleared. The throughput and p99 differences of the comparisons decided together are one family: each at
 * alpha ÷ their number (Bonferroni). A ratio is only as clean as its two sides: a case whose repetitions carry warnings
 * (not JIT-quiet, window not kept full, warm-up capped), or that was recorded before those self-checks existed, is
 * flagged with them; a case that failed, as unfair or otherwise, gives no ratio and is listed with its reason. Two
 * single-case sources are compared with each other whatever their specs (that is an A/B of two settings); otherwise
 * cases are matched by everything but their repetition count. Stateless.
 */
public final class Comparisons {

    private Comparisons() {
    }

    /**
     * One matched case.
     *
     * @param baselineCase  the baseline's case (its IO profile and group title)
     * @param candidateCase the candidate's case
     * @param throughput    candidate ÷ baseline round trips/s, with its interval and decision
     * @param p99           candidate ÷ baseline p99 RTT, with its interval and decision
     * @param verdict       the comparison in words; it ends with a caution when there are warnings
     * @param warnings      what makes either side's figures doubtful, each prefixed with its side
     *                      ({@code baseline repetition 2: measured phase not JIT-quiet: …}); empty when both sides
     *                      are clean
     * @param cpuProfile    where the two sides' CPU time per round trip differs, from the CPU profiles of their
     *                      passed repetitions; null unless both sides have some
     */
    public record CaseComparison(String baselineCase, String candidateCase, Difference throughput, Difference p99,
                                 String verdict, List<String> warnings, ProfileComparison cpuProfile) {
    }

    /**
     * Two cases' CPU time per round trip, layer by layer: each layer's figure per repetition (its share of the
     * samples × the CPU time ÷ the round trips) compared as throughput is, matched or not, the layers decided as one
     * family (Holm), so that naming any layer when none differs happens at most at the rule's alpha.
     *
     * @param baselineUsPerRoundTrip  the baseline's CPU µs per round trip, every layer together, pooled
     * @param candidateUsPerRoundTrip the candidate's
     * @param layers                  every layer with samples on either side, largest pooled change first
     * @param frames                  the frames whose inclusive CPU per round trip changed most, pooled figures only
     * @param words                   the largest established layer change in a sentence, or that none is
     */
    public record ProfileComparison(double baselineUsPerRoundTrip, double candidateUsPerRoundTrip,
                                    List<LayerChange> layers, List<ProfileDifference.Change> frames, String words) {
    }

    /**
     * One layer on both sides: pooled CPU µs per round trip, and the verdict on its per-repetition figures.
     *
     * @param name       the layer in words
     * @param difference candidate ÷ baseline over the repetitions, decided within the layers' family
     */
    public record LayerChange(String name, double baselineUsPerRoundTrip, double candidateUsPerRoundTrip,
                              double changeUs, Difference difference) {
    }

    /**
     * @param cases       every matched case
     * @param unmatched   cases present on one side only (as {@code baseline: …} or {@code candidate: …})
     * @param failedCases cases left out because one side failed, each with that side's reason (a repetition that
     *                    failed as unfair says {@code failed as unfair})
     * @param warning     set when the two were not measured alike (one against a remote target, one over loopback)
     * @param rule        the rule the decisions follow
     */
    public record Comparison(String baselineId, String candidateId, List<CaseComparison> cases,
                             List<String> unmatched, List<String> failedCases, String warning, VerdictRule rule) {
    }

    /**
     * The cases of two sources side by side.
     *
     * @param pairs     each baseline case with its candidate case (baseline first)
     * @param unmatched cases present on one side only (as {@code baseline: …} or {@code candidate: …})
     */
    public record Matching(List<CaseResult[]> pairs, List<String> unmatched) {
    }

    /**
     * Two single-case sides are paired whatever their specs (an A/B of two settings); otherwise cases are matched
     * by everything but their repetition count ({@link CaseResult#caseKey}).
     */
    public static Matching match(List<CaseResult> baseline, List<CaseResult> candidate) {
        List<CaseResult[]> pairs = new ArrayList<>();
        List<String> unmatched = new ArrayList<>();
        if (baseline.size() == 1 && candidate.size() == 1) {
            pairs.add(new CaseResult[] {baseline.getFirst(), candidate.getFirst()});
            return new Matching(pairs, unmatched);
        }
        Map<String, CaseResult> byKey = new LinkedHashMap<>();
        candidate.forEach(c -> byKey.put(c.caseKey(), c));
        for (CaseResult b : baseline) {
            CaseResult c = byKey.remove(b.caseKey());
            if (c == null) {
                unmatched.add("baseline: " + describe(b));
            } else {
                pairs.add(new CaseResult[] {b, c});
            }
        }
        byKey.values().forEach(c -> unmatched.add("candidate: " + describe(c)));
        return new Matching(pairs, unmatched);
    }

    /** Two sources, measured at different times, compared unmatched. */
    public static Comparison compare(ReportSource baseline, ReportSource candidate, VerdictRule rule) {
        List<CaseResult[]> passed = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        Matching matching = match(baseline.cases(), candidate.cases());
        for (CaseResult[] p : matching.pairs()) {
            if (!p[0].ok() || !p[1].ok()) {
                failed.add(describe(p[0]) + failure("baseline", p[0]) + failure("candidate", p[1]));
            } else {
                passed.add(p);
            }
        }
        List<String> unmatched = matching.unmatched();
        boolean baselineRemote = baseline.cases().stream().anyMatch(c -> c.spec().target() != null);
        boolean candidateRemote = candidate.cases().stream().anyMatch(c -> c.spec().target() != null);
        String warning = baselineRemote == candidateRemote ? null
                : "the " + (baselineRemote ? "baseline" : "candidate") + " ran against a remote target and the "
                + (baselineRemote ? "candidate" : "baseline") + " over loopback: the ratios compare different "
                + "things";
        return new Comparison(baseline.id(), candidate.id(), decide(passed, false, rule), unmatched, failed, warning,
                rule);
    }

    /**
     * Passed cases, each pair candidate ÷ baseline (baseline first), their throughput and p99 differences decided as
     * one family: each at the rule's alpha ÷ (2 × pairs). {@code alternated}: the pairs are cases of one matrix, whose
     * repetition r ran in the same round, and are matched repetition by repetition.
     */
    public static List<CaseComparison> decide(List<CaseResult[]> pairs, boolean alternated, VerdictRule rule) {
        int family = Math.max(1, 2 * pairs.size());
        VerdictRule each = new VerdictRule(rule.alpha() / family, rule.minimumEffect());
        return pairs.stream().map(p -> compare(p[0], p[1], alternated, each, rule)).map(c -> worded(
                new CaseComparison(c.baselineCase(), c.candidateCase(), c.throughput().inFamily(family),
                        c.p99().inFamily(family), null, c.warnings(), c.cpuProfile()))).toList();
    }

    /**
     * Two passed cases, candidate ÷ baseline, throughput and p99 by {@code rule} (its alpha already the family's
     * share), the CPU profile's layers as their own family by {@code layersRule}, with both sides' warnings; not yet
     * worded.
     */
    private static CaseComparison compare(CaseResult b, CaseResult c, boolean alternated, VerdictRule rule,
                                          VerdictRule layersRule) {
        List<String> warnings = new ArrayList<>(warnings("baseline", b));
        warnings.addAll(warnings("candidate", c));
        String profiling = profilingDiffers(b, c);
        if (profiling != null) {
            warnings.add(profiling);
        }
        boolean sameLayout = b.ioLabel().equals(c.ioLabel());
        return new CaseComparison(describe(b), describe(c),
                difference(b, c, alternated, NoiseFloor.Metric.THROUGHPUT,
                        rep -> rep.throughput().roundTripsPerSecond(), rule),
                difference(b, c, alternated, NoiseFloor.Metric.P99,
                        r -> r.rtt().latency() == null ? null : r.rtt().latency().p99Us(), rule),
                null, List.copyOf(warnings), profiles(b, c, alternated, layersRule,
                        sameLayout ? "the baseline" : b.ioLabel(), sameLayout ? "the candidate" : c.ioLabel()));
    }

    /** Where two cases' CPU per round trip differs; null unless both have profiled repetitions. */
    private static ProfileComparison profiles(CaseResult b, CaseResult c, boolean alternated, VerdictRule rule,
                                              String baselineName, String candidateName) {
        ProfileDifference figures = ProfileDifference.of(profiled(b), profiled(c));
        if (figures == null || figures.layers().isEmpty()) {
            return null;
        }
        List<Difference> decided = Verdicts.family(figures.layers().stream()
                .map(l -> rankDifference(b, c, alternated, r -> layerUsPerRoundTrip(r, l.layer()), rule)).toList(),
                rule);
        List<LayerChange> layers = new ArrayList<>();
        for (int i = 0; i < decided.size(); i++) {
            ProfileDifference.Change l = figures.layers().get(i);
            layers.add(new LayerChange(l.name(), l.baselineUsPerRoundTrip(), l.candidateUsPerRoundTrip(),
                    l.changeUs(), decided.get(i)));
        }
        LayerChange named = layers.stream().filter(l -> l.difference().established()).findFirst().orElse(null);
        LayerChange largest = layers.getFirst();
        String words = named != null
                ? String.format(Locale.ROOT, "%s spends %.0f %% %s CPU per round trip in %s than %s (%.2f µs against "
                        + "%.2f µs; %s)", candidateName, Math.abs(named.difference().ratio() - 1) * 100,
                named.difference().ratio() < 1 ? "less" : "more", named.name(), baselineName,
                named.candidateUsPerRoundTrip(), named.baselineUsPerRoundTrip(), named.difference().words())
                : String.format(Locale.ROOT, "no layer's difference in CPU per round trip is established; the "
                        + "largest, %s (%.2f µs against %.2f µs): %s", largest.name(),
                largest.candidateUsPerRoundTrip(), largest.baselineUsPerRoundTrip(), largest.difference().words());
        return new ProfileComparison(figures.baselineUsPerRoundTrip(), figures.candidateUsPerRoundTrip(), layers,
                figures.frames(), words);
    }

    /** A case's passed repetitions that have a CPU profile, with their CPU seconds and round trips. */
    private static ProfileDifference.Side profiled(CaseResult c) {
        List<RepetitionResult> reps = c.repetitions().stream().filter(r -> r.ok() && r.cpuProfile() != null
                && r.resources().cpu() != null && r.throughput().messages() != null).toList();
        return new ProfileDifference.Side(reps.stream().map(RepetitionResult::cpuProfile).toList(),
                reps.stream().mapToDouble(r -> r.resources().cpu().seconds()).sum(),
                reps.stream().mapToLong(rep -> rep.throughput().messages()).sum());
    }

    /** A repetition's CPU µs per round trip in a layer; null without a profile. */
    private static Double layerUsPerRoundTrip(RepetitionResult r, Layer layer) {
        return r.cpuProfile() == null || r.resources().cpu() == null || r.throughput().messages() == null ? null
                : ProfileDifference.layerUsPerRoundTrip(r.cpuProfile(), layer, r.resources().cpu().seconds(),
                r.throughput().messages());
    }

    private static CaseComparison worded(CaseComparison c) {
        String verdict = "throughput " + c.throughput().words() + "; p99 " + c.p99().words()
                + (c.warnings().isEmpty() ? "" : "; not clean: " + c.warnings().size()
                + (c.warnings().size() == 1 ? " warning" : " warnings") + " on its figures");
        return new CaseComparison(c.baselineCase(), c.candidateCase(), c.throughput(), c.p99(), verdict,
                c.warnings(), c.cpuProfile());
    }

    /**
     * Throughput or p99 of two cases by the confidence sequence at the rule's alpha: matched by repetition index when
     * alternated (pairs where both passed), else each side's passed repetitions, a difference then having to clear
     * the machine's drift between separate runs.
     */
    static Difference difference(CaseResult b, CaseResult c, boolean alternated, NoiseFloor.Metric metric,
                                 Function<RepetitionResult, Double> of, VerdictRule rule) {
        ConfidenceSequence.Noise noise = NoiseFloor.between(b.spec(), c.spec(), metric, NoiseFloor.RACE_ROUNDS);
        if (alternated) {
            List<RepetitionResult[]> pairs = b.matchedWith(c, r -> hasFigure(r, of));
            return SequentialVerdicts.paired(pairs.stream().mapToDouble(p -> of.apply(p[0])).toArray(),
                    pairs.stream().mapToDouble(p -> of.apply(p[1])).toArray(), noise, rule);
        }
        return SequentialVerdicts.unpaired(values(b, of), values(c, of), noise, rule, NoiseFloor.drift(metric));
    }

    /** A CPU profile layer's figure of two cases by the rank tests, to be decided as the layers' Holm family. */
    private static Difference rankDifference(CaseResult b, CaseResult c, boolean alternated,
                                             Function<RepetitionResult, Double> metric, VerdictRule rule) {
        if (alternated) {
            return paired(b.matchedWith(c, r -> hasFigure(r, metric)), metric::apply, rule);
        }
        return Verdicts.unpaired(values(b, metric), values(c, metric), false, rule);
    }

    /** One metric over matched repetitions ({@link CaseResult#matchedWith}: baseline first), alone in its family. */
    static Difference paired(List<RepetitionResult[]> pairs, ToDoubleFunction<RepetitionResult> metric,
                             VerdictRule rule) {
        return Verdicts.paired(pairs.stream().mapToDouble(p -> metric.applyAsDouble(p[0])).toArray(),
                pairs.stream().mapToDouble(p -> metric.applyAsDouble(p[1])).toArray(), rule);
    }

    private static double[] values(CaseResult c, Function<RepetitionResult, Double> metric) {
        return c.repetitions().stream().filter(r -> hasFigure(r, metric)).mapToDouble(metric::apply).toArray();
    }

    /** Whether a repetition passed and has a positive, finite value of the metric. */
    public static boolean hasFigure(RepetitionResult r, Function<RepetitionResult, Double> metric) {
        Double v = r.ok() ? metric.apply(r) : null;
        return v != null && v > 0 && !v.isInfinite();
    }

    /** " (candidate failed as unfair: repetition 2: unfair: …)", " (baseline failed: …)", or "" when it passed. */
    public static String failure(String side, CaseResult c) {
        if (c.ok()) {
            return "";
        }
        String unfair = c.unfairFailure();
        return unfair != null ? " (" + side + " failed as unfair: " + unfair + ")"
                : " (" + side + " failed" + (c.error() == null ? "" : ": " + c.error()) + ")";
    }

    /**
     * Why two cases' figures differ by more than what they compare when one was profiled and the other not: sampling
     * costs (p99 most); null when both were alike.
     */
    public static String profilingDiffers(CaseResult b, CaseResult c) {
        Profiling bp = b.spec().profiling();
        Profiling cp = c.spec().profiling();
        return bp == cp ? null : "the " + (bp == Profiling.CPU ? "baseline" : "candidate") + " was profiled and the "
                + (bp == Profiling.CPU ? "candidate" : "baseline") + " not: the profiler's cost (p99 most) is on one "
                + "side only";
    }

    /** A side's warnings, prefixed with the side; a record made before the self-checks existed says so. */
    public static List<String> warnings(String side, CaseResult c) {
        List<String> out = new ArrayList<>(c.warnings().stream().map(w -> side + " " + w).toList());
        if (c.predatesSelfChecks()) {
            out.add(side + ": recorded before the self-checks (JIT activity, fairness, window fill) existed");
        }
        return out;
    }

    public static String describe(CaseResult c) {
        return c.groupTitle() + " / " + c.ioLabel();
    }
}
