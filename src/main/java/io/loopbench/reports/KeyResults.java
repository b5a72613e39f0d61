package io.loopbench.reports;

import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.Stat;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The key-result sentence of a group, computed the way arknet words its report: which IO profile has the highest
 * throughput median, how it compares with one thread (throughput ratio, p99 versus p99), and — where the min–max
 * ranges of the two overlap — that the difference is not established. Failed cases are left out, as arknet's
 * dimensions report does. When a case of the group carries warnings (a measured phase not JIT-quiet, Little's law
 * missed, a capped warm-up), its figures are doubtful, and the sentence says that it is not established. Stateless.
 */
public final class KeyResults {

    private KeyResults() {
    }

    public static Optional<String> sentence(CaseGroups group) {
        List<CaseResult> ok = group.succeeded();
        if (ok.isEmpty()) {
            return Optional.empty();
        }
        CaseResult best = ok.stream()
                .max(Comparator.comparingDouble(c -> c.summary().roundTripsPerSecond().median())).orElseThrow();
        CaseResult baseline = baseline(ok);
        String head = group.title() + ": " + best.ioWords() + " has this group's highest throughput median";
        if (best == baseline || ok.size() == 1) {
            return Optional.of(String.format(Locale.ROOT,
                    "%s (%s round trips/s), with p99 RTT of %s µs and process CPU utilization of %.1f %%.",
                    head, Format.count(best.summary().roundTripsPerSecond().median()),
                    Format.micros(best.summary().latency().p99Us().median()),
                    best.summary().cpuPercent().median()) + warned(ok));
        }
        Stat b = best.summary().roundTripsPerSecond();
        Stat base = baseline.summary().roundTripsPerSecond();
        String sentence = String.format(Locale.ROOT, "%s (%.2f× %s); its p99 is %s µs versus %s µs with %s.", head,
                b.median() / base.median(), baseline.ioWords(), Format.micros(best.summary().latency().p99Us().median()),
                Format.micros(baseline.summary().latency().p99Us().median()), baseline.ioWords());
        if (Comparisons.overlap(b, base)) {
            sentence += " Their throughput ranges overlap, so this difference is not established.";
        }
        return Optional.of(sentence + warned(ok));
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
                + "self-checks (JIT activity, fairness, Little's law) existed, so nothing here says the measured "
                + "phases were steady and fair." : "";
    }

    /** One thread: shared with 1 thread if the group has it, else the profile with the fewest threads. */
    static CaseResult baseline(List<CaseResult> ok) {
        return ok.stream()
                .filter(c -> c.spec().ioModel() == IoModel.SHARED && c.spec().ioThreads() == 1)
                .findFirst()
                .orElseGet(() -> ok.stream().min(Comparator.comparingInt(CaseResult::ioOrder)).orElseThrow());
    }
}
