package io.loopbench.cluster;

import java.util.Comparator;
import java.util.List;

/**
 * How an agent's monotonic clock stands to the coordinator's, from round-trip probes as NTP estimates it: the probe
 * with the shortest delay gives the offset, and, since the probe arrived after it left and the answer after it was
 * sent, the true offset lies within half that delay of it, whatever way the delay split.
 *
 * @param offsetNanos      the agent's clock minus the coordinator's
 * @param uncertaintyNanos the true offset is within this of {@code offsetNanos}: half the shortest probe's delay
 * @param probes           how many probes it was estimated from
 */
public record ClockOffset(long offsetNanos, long uncertaintyNanos, int probes) {

    /** The estimate from these probes (at least one). */
    public static ClockOffset estimate(List<ClockProbe> probes) {
        ClockProbe best = probes.stream().min(Comparator.comparingLong(ClockProbe::delayNanos))
                .orElseThrow(() -> new IllegalArgumentException("no probes"));
        return new ClockOffset(best.offsetNanos(), (Math.max(0, best.delayNanos()) + 1) / 2, probes.size());
    }

    /** An instant of the coordinator's clock on the agent's. */
    public long toAgent(long coordinatorNanos) {
        return coordinatorNanos + offsetNanos;
    }

    /** An instant of the agent's clock on the coordinator's. */
    public long toCoordinator(long agentNanos) {
        return agentNanos - offsetNanos;
    }
}
