package io.loopbench.engine.latency;

/**
 * Round-trip times of one measured phase, in microseconds, from an HdrHistogram holding every observation (no
 * sampling; 3 significant digits, so each percentile is exact to 0.1 %). An RTT runs from the message's send stamp —
 * a phase's first window as each message is written, a refill at the instant the echo that freed its slot was
 * matched (before that echo's content check, the rest of its read batch and the flush that hands the refill to the
 * transport), under open load when the pacer sends it — to the instant its echo's slot is matched. Queueing behind
 * the rest of the window is included; how much of it lies before the hand-over is the repetition's
 * {@code StampGap}.
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
