package io.loopbench.engine;

import java.util.List;
import java.util.function.Function;

/**
 * Each metric's median, min and max over the repetitions. Latencies are medians of per-repetition percentiles,
 * never percentiles of pooled observations. Only built when every repetition is ok.
 *
 * @param repetitions         how many repetitions the statistics cover
 * @param roundTripsPerSecond round trips per second
 * @param payloadMibPerSecond payload MiB per second, both directions
 * @param latency             RTT percentiles, µs
 * @param cpuPercent          process CPU, % of one logical CPU
 * @param peakRssBytes        peak resident memory, bytes (null where unknown)
 * @param gcCollections       garbage collections during the measured phase
 */
public record Summary(
        int repetitions,
        Stat roundTripsPerSecond,
        Stat payloadMibPerSecond,
        LatencySummary latency,
        Stat cpuPercent,
        Stat peakRssBytes,
        Stat gcCollections) {

    /**
     * Latency statistics in microseconds, each over the repetitions' own percentiles.
     *
     * @param mode   what one observation covers: one message or one batch
     * @param p50Us  median of the repetitions' medians
     * @param p90Us  over the repetitions' 90th percentiles
     * @param p95Us  over the repetitions' 95th percentiles
     * @param p99Us  over the repetitions' 99th percentiles
     * @param p999Us over the repetitions' 99.9th percentiles
     * @param maxUs  over the repetitions' largest RTTs
     * @param meanUs over the repetitions' mean RTTs
     */
    public record LatencySummary(LatencyMode mode, Stat p50Us, Stat p90Us, Stat p95Us, Stat p99Us, Stat p999Us,
                                 Stat maxUs, Stat meanUs) {
    }

    static Summary of(List<RepetitionResult> reps) {
        return new Summary(reps.size(),
                stat(reps, RepetitionResult::roundTripsPerSecond),
                stat(reps, RepetitionResult::payloadMibPerSecond),
                new LatencySummary(reps.getFirst().latency().mode(),
                        stat(reps, r -> r.latency().p50Us()),
                        stat(reps, r -> r.latency().p90Us()),
                        stat(reps, r -> r.latency().p95Us()),
                        stat(reps, r -> r.latency().p99Us()),
                        stat(reps, r -> r.latency().p999Us()),
                        stat(reps, r -> r.latency().maxUs()),
                        stat(reps, r -> r.latency().meanUs())),
                stat(reps, r -> r.cpu().percent()),
                reps.stream().allMatch(r -> r.memory().peakRssBytes() != null)
                        ? stat(reps, r -> r.memory().peakRssBytes()) : null,
                stat(reps, r -> r.gc().collections()));
    }

    private static Stat stat(List<RepetitionResult> reps, Function<RepetitionResult, ? extends Number> metric) {
        return Stat.of(reps.stream().map(metric).toList());
    }
}
