package io.loopbench.cluster;

import java.util.List;

/**
 * How simultaneous a start at one instant was across agents.
 *
 * @param starts               each agent's start, by member name
 * @param skewNanos            the latest start minus the earliest, on the coordinator's timeline
 * @param skewUncertaintyNanos the skew is within this of {@code skewNanos}: the two largest offset uncertainties
 *                             added (each start is placed on the coordinator's timeline through its agent's offset)
 */
public record StartReport(List<AgentStart> starts, long skewNanos, long skewUncertaintyNanos) {

    static StartReport of(List<AgentStart> starts) {
        long min = starts.stream().mapToLong(AgentStart::lateNanos).min().orElse(0);
        long max = starts.stream().mapToLong(AgentStart::lateNanos).max().orElse(0);
        long[] u = starts.stream().mapToLong(s -> s.offset().uncertaintyNanos()).sorted().toArray();
        long uncertainty = u.length == 0 ? 0 : u[u.length - 1] + (u.length > 1 ? u[u.length - 2] : 0);
        return new StartReport(List.copyOf(starts), max - min, uncertainty);
    }
}
