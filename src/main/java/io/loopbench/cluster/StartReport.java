package io.loopbench.cluster;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * How simultaneous a start at one instant was across agents.
 *
 * @param starts               each agent's start, by member name
 * @param skewNanos            the latest start minus the earliest, on the coordinator's timeline
 * @param skewUncertaintyNanos the skew is within this of {@code skewNanos}: the two largest offset uncertainties
 *                             added (each start is placed on the coordinator's timeline through its agent's offset)
 */
public record StartReport(List<AgentStart> starts, long skewNanos, long skewUncertaintyNanos) {

    /** A skew above this share of the measured phase is reported as a warning on the repetition. */
    public static final double TOLERANCE = 0.01;

    static StartReport of(List<AgentStart> starts) {
        long min = starts.stream().mapToLong(AgentStart::lateNanos).min().orElse(0);
        long max = starts.stream().mapToLong(AgentStart::lateNanos).max().orElse(0);
        long[] u = starts.stream().mapToLong(s -> s.offset().uncertaintyNanos()).sorted().toArray();
        long uncertainty = u.length == 0 ? 0 : u[u.length - 1] + (u.length > 1 ? u[u.length - 2] : 0);
        return new StartReport(List.copyOf(starts), max - min, uncertainty);
    }

    /**
     * The warning a repetition whose client agents did not start together carries, naming the last to start and
     * why it was late (its order arrived late, or it woke late); null when the skew is within {@link #TOLERANCE}
     * of the phase. Each agent measures a phase of its own length from its own start, so a skew is a stretch at
     * each end where fewer agents loaded the server: the summed rate mixes in those stretches.
     */
    public String warning(double phaseSeconds) {
        if (starts.isEmpty() || skewNanos <= TOLERANCE * phaseSeconds * 1e9) {
            return null;
        }
        AgentStart last = starts.stream().max(Comparator.comparingLong(AgentStart::lateNanos)).orElseThrow();
        String why = last.noticeNanos() == null ? ""
                : last.noticeNanos() < 0
                ? String.format(Locale.ROOT, "; its order arrived %.1f ms after the instant", -last.noticeNanos() / 1e6)
                : String.format(Locale.ROOT, "; its order arrived %.1f ms ahead of the instant, so it woke late",
                        last.noticeNanos() / 1e6);
        return String.format(Locale.ROOT, "start skew %.1f ms is %.1f %% of the %.1f s phase: the client agents "
                        + "loaded the server together for only part of it (%s started %.1f ms after the instant%s)",
                skewNanos / 1e6, 100 * skewNanos / (phaseSeconds * 1e9), phaseSeconds, last.member(),
                last.lateNanos() / 1e6, why);
    }
}
