package io.loopbench.cluster;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * How simultaneous the client agents' measured phases were: from each agent's own phase start and stop once their
 * parts are in ({@link #measured}), from the start barrier's releases before (and for results stored before).
 *
 * @param starts               each agent's start, by member name
 * @param skewNanos            the latest start minus the earliest, on the coordinator's timeline: of the measured
 *                             phases where every agent's span is known, else of the barrier's releases
 * @param skewUncertaintyNanos the skew is within this of {@code skewNanos}: the two largest offset uncertainties
 *                             added (each start is placed on the coordinator's timeline through its agent's offset)
 * @param stopSkewNanos        the latest measured phase stop minus the earliest; null where a span is unknown
 * @param overlapNanos         how long every client agent was in its measured phase at once: the earliest stop minus
 *                             the latest start; null where a span is unknown
 */
public record StartReport(List<AgentStart> starts, long skewNanos, long skewUncertaintyNanos, Long stopSkewNanos,
                          Long overlapNanos) {

    /** A skew that, with its uncertainty, exceeds this share of the measured phase is a warning on the repetition. */
    public static final double TOLERANCE = 0.01;

    /** From the barrier's releases alone, before the phases ran. */
    static StartReport of(List<AgentStart> starts) {
        long[] u = starts.stream().mapToLong(s -> s.offset().uncertaintyNanos()).sorted().toArray();
        long uncertainty = u.length == 0 ? 0 : u[u.length - 1] + (u.length > 1 ? u[u.length - 2] : 0);
        if (starts.isEmpty() || starts.stream().anyMatch(s -> s.phase() == null)) {
            return new StartReport(List.copyOf(starts), spread(starts, AgentStart::lateNanos), uncertainty, null,
                    null);
        }
        long latestStart = starts.stream().mapToLong(AgentStart::phaseLateNanos).max().orElseThrow();
        long earliestStop = starts.stream().mapToLong(AgentStart::phaseStopLateNanos).min().orElseThrow();
        return new StartReport(List.copyOf(starts), spread(starts, AgentStart::phaseLateNanos), uncertainty,
                spread(starts, AgentStart::phaseStopLateNanos), earliestStop - latestStart);
    }

    private static long spread(List<AgentStart> starts, ToLongFunction<AgentStart> at) {
        return starts.stream().mapToLong(at).max().orElse(0) - starts.stream().mapToLong(at).min().orElse(0);
    }

    /** This barrier's starts with each agent's measured phase span, by member, where its part gave one. */
    StartReport measured(Map<String, PhaseSpan> spans) {
        return of(starts.stream().map(s -> s.withPhase(spans.get(s.member()))).toList());
    }

    /** Whether the skew is the measured phases' own (every client agent's span known). */
    public boolean fromPhases() {
        return stopSkewNanos != null;
    }

    /**
     * The warning a repetition whose client agents' phases did not run together carries: when the start or stop
     * skew, plus its uncertainty, exceeds {@link #TOLERANCE} of the phase. It names the agent that began last and
     * where its delay arose (its order arrived late, it woke late, or its clients began late after their release);
     * null otherwise. Each agent measures a phase of its own length from its own start, so a skew is a stretch at
     * each end where fewer agents loaded the server: the summed rate mixes in those stretches.
     */
    public String warning(double phaseSeconds) {
        long worst = Math.max(skewNanos, Objects.requireNonNullElse(stopSkewNanos, 0L));
        if (starts.isEmpty() || worst + skewUncertaintyNanos <= TOLERANCE * phaseSeconds * 1e9) {
            return null;
        }
        ToLongFunction<AgentStart> start = fromPhases() ? AgentStart::phaseLateNanos : AgentStart::lateNanos;
        AgentStart last = starts.stream().max(Comparator.comparingLong(start)).orElseThrow();
        String why = last.noticeNanos() == null ? ""
                : last.noticeNanos() < 0
                ? String.format(Locale.ROOT, "; its order arrived %.1f ms after the instant", -last.noticeNanos() / 1e6)
                : String.format(Locale.ROOT, "; its order arrived %.1f ms ahead of the instant",
                        last.noticeNanos() / 1e6);
        String stop = "";
        String together = "part";
        if (fromPhases()) {
            why += String.format(Locale.ROOT, ", its barrier released it %.1f ms after the instant and its clients "
                    + "began %.1f ms after that", last.lateNanos() / 1e6, last.phase().beganNanos() / 1e6);
            stop = String.format(Locale.ROOT, " and stop skew %.1f ms", stopSkewNanos / 1e6);
            together = String.format(Locale.ROOT, "%.3f s", overlapNanos / 1e9);
        } else if (last.noticeNanos() != null && last.noticeNanos() >= 0) {
            why += ", so it woke late";
        }
        return String.format(Locale.ROOT, "start skew %.1f ms (± %.1f ms)%s, over %.1f %% of the %.1f s phase: the "
                        + "client agents loaded the server together for only %s of it (%s %s %.1f ms after the "
                        + "instant%s)",
                skewNanos / 1e6, skewUncertaintyNanos / 1e6, stop, 100 * TOLERANCE, phaseSeconds, together,
                last.member(), fromPhases() ? "began its measured phase" : "started", start.applyAsLong(last) / 1e6,
                why);
    }
}
