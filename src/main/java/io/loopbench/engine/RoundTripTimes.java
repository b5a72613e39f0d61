package io.loopbench.engine;

import io.loopbench.engine.latency.Latency;

/**
 * A repetition's round-trip times over its measured phase. Immutable.
 *
 * @param latency            round-trip times, in microseconds; with open load measured from each message's intended
 *                           send time (corrected for coordinated omission)
 * @param uncorrectedLatency open load only: round-trip times from each message's actual send time
 * @param latencyHistogram   every RTT of {@code latency}, in nanoseconds: an HdrHistogram in its compressed
 *                           encoding, Base64 (as in HdrHistogram's log format), so that repetitions, runs and hosts
 *                           can be merged exactly
 */
public record RoundTripTimes(Latency latency, Latency uncorrectedLatency, String latencyHistogram) {

    public static final RoundTripTimes NONE = new RoundTripTimes(null, null, null);
}
