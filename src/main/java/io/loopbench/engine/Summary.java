package io.loopbench.engine;

import com.fasterxml.jackson.annotation.JsonAlias;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.profile.ProfileSummary;

import java.util.List;
import java.util.function.Function;

/**
 * Each metric's median, min and max over the repetitions. {@code latency} holds medians of per-repetition
 * percentiles (arknet's statistic); {@code pooledLatency} beside it holds the percentiles of every repetition's
 * observations merged exactly into one histogram. Only built when every repetition is ok.
 *
 * @param repetitions         how many repetitions the statistics cover
 * @param roundTripsPerSecond round trips per second
 * @param payloadMibPerSecond payload MiB per second, both directions
 * @param latency             RTT percentiles, µs
 * @param cpuPercent          process CPU, % of one logical CPU
 * @param peakRssBytes        peak resident memory, bytes (null where unknown)
 * @param gcCollections       garbage collections during the measured phase
 * @param pooledLatency       RTT percentiles of all repetitions' observations pooled (merged histograms), µs; null
 *                            when a repetition has no stored histogram
 * @param jainIndex           Jain's fairness index of the clients' validated echoes
 * @param windowFillRatio     round trips/s × mean RTT ÷ (clients × window); null where it does not apply (stored
 *                            before this name as {@code littlesLawRatio})
 * @param jitCompilations     JIT compilations during the measured phase
 * @param jitDeoptimizations  JIT deoptimizations during the measured phase
 * @param warmupSeconds       how long the warm-ups ran; null without warm-up
 * @param warnings            every repetition's warnings, each prefixed with its repetition
 * @param notes               every repetition's notes, each prefixed with its repetition (null in records stored
 *                            before notes)
 * @param cpuProfile          the repetitions' CPU profiles merged: layers (with CPU µs per round trip) and threads;
 *                            null when none was profiled
 */
public record Summary(
        int repetitions,
        Stat roundTripsPerSecond,
        Stat payloadMibPerSecond,
        LatencySummary latency,
        Stat cpuPercent,
        Stat peakRssBytes,
        Stat gcCollections,
        Latency pooledLatency,
        Stat jainIndex,
        @JsonAlias("littlesLawRatio") Stat windowFillRatio,
        Stat jitCompilations,
        Stat jitDeoptimizations,
        Stat warmupSeconds,
        List<String> warnings,
        List<String> notes,
        ProfileSummary cpuProfile) {

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

    public static Summary of(List<RepetitionResult> reps) {
        return new Summary(reps.size(),
                stat(reps, rep -> rep.throughput().roundTripsPerSecond()),
                stat(reps, rep -> rep.throughput().payloadMibPerSecond()),
                new LatencySummary(reps.getFirst().rtt().latency().mode(),
                        stat(reps, r -> r.rtt().latency().p50Us()),
                        stat(reps, r -> r.rtt().latency().p90Us()),
                        stat(reps, r -> r.rtt().latency().p95Us()),
                        stat(reps, r -> r.rtt().latency().p99Us()),
                        stat(reps, r -> r.rtt().latency().p999Us()),
                        stat(reps, r -> r.rtt().latency().maxUs()),
                        stat(reps, r -> r.rtt().latency().meanUs())),
                stat(reps, r -> r.resources().cpu().percent()),
                reps.stream().allMatch(r -> r.resources().memory().peakRssBytes() != null)
                        ? stat(reps, r -> r.resources().memory().peakRssBytes()) : null,
                stat(reps, r -> r.jvm().gc().collections()),
                pooled(reps),
                statIfAll(reps, r -> r.checks().fairness() == null ? null : r.checks().fairness().jainIndex()),
                statIfAll(reps, r -> r.checks().windowFill() == null ? null : r.checks().windowFill().ratio()),
                statIfAll(reps, r -> r.jvm().jit() == null ? null : r.jvm().jit().compilations()),
                statIfAll(reps, r -> r.jvm().jit() == null ? null : r.jvm().jit().deoptimizations()),
                statIfAll(reps, r -> r.checks().warmup() == null ? null : r.checks().warmup().elapsedSeconds()),
                prefixed(reps, rep -> rep.checks().warnings()), prefixed(reps, rep -> rep.checks().notes()),
                profile(reps));
    }

    /** The profiled repetitions' profiles merged, against those repetitions' CPU time and round trips. */
    private static ProfileSummary profile(List<RepetitionResult> reps) {
        List<RepetitionResult> profiled = reps.stream().filter(r -> r.cpuProfile() != null).toList();
        return ProfileSummary.of(profiled.stream().map(RepetitionResult::cpuProfile).toList(),
                profiled.stream().mapToDouble(r -> r.resources().cpu().seconds()).sum(),
                profiled.stream().mapToLong(rep -> rep.throughput().messages()).sum());
    }

    private static List<String> prefixed(List<RepetitionResult> reps, Function<RepetitionResult, List<String>> lines) {
        return reps.stream().flatMap(r -> lines.apply(r).stream().map(w -> "repetition " + r.repetition() + ": " + w))
                .toList();
    }

    /** Percentiles of every repetition's observations merged; null unless every repetition stored its histogram. */
    private static Latency pooled(List<RepetitionResult> reps) {
        if (reps.stream().anyMatch(r -> r.rtt().latencyHistogram() == null)) {
            return null;
        }
        return LatencyHistograms.latency(reps.getFirst().rtt().latency().mode(), LatencyHistograms.merged(
                reps.stream().map(r -> LatencyHistograms.decode(r.rtt().latencyHistogram())).toList()));
    }

    /** The statistic when every repetition has the metric (older records may lack it), else null. */
    private static Stat statIfAll(List<RepetitionResult> reps, Function<RepetitionResult, ? extends Number> metric) {
        return reps.stream().allMatch(r -> metric.apply(r) != null) ? stat(reps, metric) : null;
    }

    private static Stat stat(List<RepetitionResult> reps, Function<RepetitionResult, ? extends Number> metric) {
        return Stat.of(reps.stream().map(metric).toList());
    }
}
