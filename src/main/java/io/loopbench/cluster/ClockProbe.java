package io.loopbench.cluster;

/**
 * One round trip between the coordinator and an agent, each instant on its own host's monotonic clock
 * ({@code System.nanoTime}), NTP's four timestamps.
 *
 * @param sentNanos     coordinator: the probe left
 * @param receivedNanos agent: the probe arrived
 * @param repliedNanos  agent: the answer left
 * @param answeredNanos coordinator: the answer arrived
 */
public record ClockProbe(long sentNanos, long receivedNanos, long repliedNanos, long answeredNanos) {

    /** Time on the wire both ways: the round trip less the agent's time holding the probe. */
    public long delayNanos() {
        return (answeredNanos - sentNanos) - (repliedNanos - receivedNanos);
    }

    /**
     * The agent's clock minus the coordinator's, were both ways equally long: NTP's
     * ((received − sent) + (replied − answered)) / 2, written as (received − sent) − delay / 2 so that it holds
     * in wrapping arithmetic too (two hosts' {@code nanoTime} origins are arbitrary, their offset may wrap around;
     * adding it back wraps alike).
     */
    public long offsetNanos() {
        return (receivedNanos - sentNanos) - delayNanos() / 2;
    }
}
