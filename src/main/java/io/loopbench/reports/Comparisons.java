package io.loopbench.reports;

import io.loopbench.engine.Stat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Baseline versus candidate, case by case: the ratio of medians (candidate ÷ baseline) for throughput and p99, and
 * whether the two min–max ranges overlap — then the difference is reported as not established, as arknet does.
 * A ratio is only as clean as its two sides: a case whose repetitions carry warnings (not JIT-quiet, Little's law
 * missed, warm-up capped), or that was recorded before those self-checks existed, is flagged with them; a case that
 * failed, as unfair or otherwise, gives no ratio and is listed with its reason. Two single-case sources are compared
 * with each other whatever their specs (that is an A/B of two settings); otherwise cases are matched by everything
 * but their repetition count. Stateless.
 */
public final class Comparisons {

    private Comparisons() {
    }

    /**
     * One matched case.
     *
     * @param baselineCase            the baseline's case (its IO profile and group title)
     * @param candidateCase           the candidate's case
     * @param throughputRatio         candidate ÷ baseline median round trips/s
     * @param p99Ratio                candidate ÷ baseline median p99 RTT
     * @param throughputRangesOverlap whether the two throughput min–max ranges overlap
     * @param p99RangesOverlap        whether the two p99 min–max ranges overlap
     * @param verdict                 the comparison in words; it ends with a caution when there are warnings
     * @param warnings                what makes either side's figures doubtful, each prefixed with its side
     *                                ({@code baseline repetition 2: measured phase not JIT-quiet: …}); empty when
     *                                both sides are clean
     */
    public record CaseComparison(String baselineCase, String candidateCase, double throughputRatio, double p99Ratio,
                                 boolean throughputRangesOverlap, boolean p99RangesOverlap, String verdict,
                                 List<String> warnings) {
    }

    /**
     * @param cases       every matched case
     * @param unmatched   cases present on one side only (as {@code baseline: …} or {@code candidate: …})
     * @param failedCases cases left out because one side failed, each with that side's reason (a repetition that
     *                    failed as unfair says {@code failed as unfair})
     * @param warning     set when the two were not measured alike (one against a remote target, one over loopback)
     */
    public record Comparison(String baselineId, String candidateId, List<CaseComparison> cases,
                             List<String> unmatched, List<String> failedCases, String warning) {
    }

    public static boolean overlap(Stat a, Stat b) {
        return a.min() <= b.max() && b.min() <= a.max();
    }

    public static Comparison compare(ReportSource baseline, ReportSource candidate) {
        List<CaseComparison> out = new ArrayList<>();
        List<String> unmatched = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        if (baseline.cases().size() == 1 && candidate.cases().size() == 1) {
            pair(baseline.cases().getFirst(), candidate.cases().getFirst(), out, failed);
        } else {
            Map<String, CaseResult> byKey = new LinkedHashMap<>();
            candidate.cases().forEach(c -> byKey.put(c.caseKey(), c));
            for (CaseResult b : baseline.cases()) {
                CaseResult c = byKey.remove(b.caseKey());
                if (c == null) {
                    unmatched.add("baseline: " + describe(b));
                } else {
                    pair(b, c, out, failed);
                }
            }
            byKey.values().forEach(c -> unmatched.add("candidate: " + describe(c)));
        }
        boolean baselineRemote = baseline.cases().stream().anyMatch(c -> c.spec().target() != null);
        boolean candidateRemote = candidate.cases().stream().anyMatch(c -> c.spec().target() != null);
        String warning = baselineRemote == candidateRemote ? null
                : "the " + (baselineRemote ? "baseline" : "candidate") + " ran against a remote target and the "
                + (baselineRemote ? "candidate" : "baseline") + " over loopback: the ratios compare different "
                + "things";
        return new Comparison(baseline.id(), candidate.id(), out, unmatched, failed, warning);
    }

    private static void pair(CaseResult b, CaseResult c, List<CaseComparison> out, List<String> failed) {
        if (!b.ok() || !c.ok()) {
            failed.add(describe(b) + failure("baseline", b) + failure("candidate", c));
        } else {
            out.add(compare(b, c));
        }
    }

    /** Two passed cases, candidate ÷ baseline, with the overlap rule and both sides' warnings. */
    static CaseComparison compare(CaseResult b, CaseResult c) {
        Stat bt = b.summary().roundTripsPerSecond();
        Stat ct = c.summary().roundTripsPerSecond();
        Stat bp = b.summary().latency().p99Us();
        Stat cp = c.summary().latency().p99Us();
        boolean tOverlap = overlap(bt, ct);
        boolean pOverlap = overlap(bp, cp);
        double tRatio = ct.median() / bt.median();
        double pRatio = cp.median() / bp.median();
        List<String> warnings = new ArrayList<>(warnings("baseline", b));
        warnings.addAll(warnings("candidate", c));
        String verdict = (tOverlap ? "throughput difference not established (ranges overlap)"
                : "throughput " + Format.ratio(tRatio) + " of baseline")
                + "; " + (pOverlap ? "p99 difference not established (ranges overlap)"
                : "p99 " + Format.ratio(pRatio) + " of baseline")
                + (warnings.isEmpty() ? "" : "; not clean: " + warnings.size()
                + (warnings.size() == 1 ? " warning" : " warnings") + " on its figures");
        return new CaseComparison(describe(b), describe(c), tRatio, pRatio, tOverlap, pOverlap, verdict,
                List.copyOf(warnings));
    }

    /** " (candidate failed as unfair: repetition 2: unfair: …)", " (baseline failed: …)", or "" when it passed. */
    static String failure(String side, CaseResult c) {
        if (c.ok()) {
            return "";
        }
        String unfair = c.unfairFailure();
        return unfair != null ? " (" + side + " failed as unfair: " + unfair + ")"
                : " (" + side + " failed" + (c.error() == null ? "" : ": " + c.error()) + ")";
    }

    /** A side's warnings, prefixed with the side; a record made before the self-checks existed says so. */
    private static List<String> warnings(String side, CaseResult c) {
        List<String> out = new ArrayList<>(c.warnings().stream().map(w -> side + " " + w).toList());
        if (c.predatesSelfChecks()) {
            out.add(side + ": recorded before the self-checks (JIT activity, fairness, Little's law) existed");
        }
        return out;
    }

    static String describe(CaseResult c) {
        return c.groupTitle() + " / " + c.ioLabel();
    }
}
