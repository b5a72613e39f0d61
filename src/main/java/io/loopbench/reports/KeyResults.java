package io.loopbench.reports;

import io.loopbench.verdicts.VerdictRule;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The key-result sentence of a group, after the way arknet words its report: which IO profile has the highest
 * throughput median, with its p99 and CPU; then whether it beats the runner-up — throughput and p99, each a ratio
 * with its interval and a decision by the confidence sequence ({@link Comparisons}), the group's repetitions matched
 * by round (a matrix runs repetition r of every case in the same round), the two metrics one family, and where
 * both were profiled, the layer whose CPU per round trip differs most, established over the matched repetitions
 * ({@link Comparisons.ProfileComparison}) — and every case of
 * the group that failed, with why. When a passed case of the group carries warnings (a measured phase not JIT-quiet,
 * window not kept full, a capped warm-up), its figures are doubtful, and the sentence says so. Stateless.
 */
public final class KeyResults {

    private KeyResults() {
    }

    public static Optional<String> sentence(CaseGroups group, VerdictRule rule) {
        List<CaseResult> ok = group.succeeded().stream()
                .sorted(Comparator.comparingDouble((CaseResult c) -> c.summary().roundTripsPerSecond().median())
                        .reversed()).toList();
        String failed = failed(group);
        if (ok.isEmpty()) {
            return failed.isEmpty() ? Optional.empty() : Optional.of(group.title() + ": no case passed." + failed);
        }
        CaseResult best = ok.getFirst();
        String sentence = String.format(Locale.ROOT,
                "%s: %s has this group's highest throughput median (%s round trips/s), with p99 RTT of %s µs and "
                        + "process CPU utilization of %.1f %%.", group.title(), best.ioWords(),
                Format.count(best.summary().roundTripsPerSecond().median()),
                Format.micros(best.summary().latency().p99Us().median()), best.summary().cpuPercent().median());
        if (ok.size() > 1) {
            CaseResult runnerUp = ok.get(1);
            Comparisons.CaseComparison c = Comparisons.decide(
                    List.<CaseResult[]>of(new CaseResult[] {runnerUp, best}), true, rule).getFirst();
            sentence += " Against the runner-up, " + runnerUp.ioWords() + ": throughput "
                    + c.throughput().words() + "; p99 " + c.p99().words() + "."
                    + (c.cpuProfile() == null ? "" : " CPU profiles: " + Format.text(c.cpuProfile().words()) + ".");
        }
        return Optional.of(sentence + failed + warned(ok));
    }

    /**
     * " Failed: shared 2 (repetition 2: unfair: …)." for the group's failed cases, their stored reasons escaped as
     * Markdown text; "" when none failed.
     */
    private static String failed(CaseGroups group) {
        List<String> failed = group.cases().stream().filter(c -> !c.ok())
                .map(c -> c.ioWords() + " (" + Format.text(c.failures().isEmpty() ? String.valueOf(c.error())
                        : String.join("; ", c.failures())) + ")").toList();
        return failed.isEmpty() ? "" : " Failed: " + String.join(", ", failed) + ".";
    }

    /**
     * " This result is not established: … carries warnings …" when a case of the group has warnings; a note when its
     * cases were recorded before the self-checks existed; else "".
     */
    private static String warned(List<CaseResult> ok) {
        List<String> doubtful = ok.stream().filter(c -> !c.warnings().isEmpty()).map(CaseResult::ioWords).toList();
        if (!doubtful.isEmpty()) {
            return " This result is not established: " + (doubtful.size() == 1 ? doubtful.getFirst()
                    : String.join(", ", doubtful.subList(0, doubtful.size() - 1)) + " and " + doubtful.getLast())
                    + (doubtful.size() == 1 ? " carries warnings" : " carry warnings")
                    + " (see the group's self-checks under \"Detailed results\").";
        }
        return ok.stream().anyMatch(CaseResult::predatesSelfChecks) ? " These figures were recorded before the "
                + "self-checks (JIT activity, fairness, window fill) existed, so nothing here says the measured "
                + "phases were steady and fair." : "";
    }
}
