package io.loopbench.engine.latency;

/**
 * Round-trip times of one measured phase, in microseconds, from an HdrHistogram holding every observation (no
 * sampling; 3 significant digits, so each percentile is exact to 0.1 %). RTT, the same for every execution and
 * protocol: the send time is taken immediately before the message is handed to the transport (before any write or
 * flush); the receive time when that echo's slot is matched, per message; the refill sent for it reuses that instant.
 * Queueing behind the rest of the window is included.
 *
 * @param mode         {@code message}: one observation per echo; {@code batch}: one per window of echoes
 * @param observations how many RTTs the percentiles are computed from
 * @param p50Us        median RTT, µs
 * @param p90Us        90th percentile, µs
 * @param p95Us        95th percentile, µs
 * @param p99Us        99th percentile, µs
 * @param p999Us       99.9th percentile, µs
 * @param maxUs        largest RTT observed, µs
 * @param meanUs       mean RTT, µs
 */
public record Latency(LatencyMode mode, long observations, double p50Us, double p90Us, double p95Us,
                      double p99Us, double p999Us, double maxUs, double meanUs) {
}
