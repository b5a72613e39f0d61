package io.loopbench.race;

import io.loopbench.engine.RepetitionResult;

/**
 * What the race reads of one repetition of one candidate. Immutable.
 *
 * @param roundTripsPerSecond the throughput; null when the repetition failed
 * @param p99Us               the round-trip time's p99, µs; null when it failed
 * @param cpuUsPerRoundTrip   process CPU (both ends) per round trip, µs; null where not measured
 * @param peakRssBytes        the measuring JVM's peak RSS; null where not measured
 * @param warned              whether the result carries a warning (a cold JIT, a starved connection, …): such a
 *                            repetition is left out of every comparison, with its round's pairs
 * @param failure             why the repetition failed; null when it passed
 */
public record RaceSample(Double roundTripsPerSecond, Double p99Us, Double cpuUsPerRoundTrip, Long peakRssBytes,
                         boolean warned, String failure) {

    /** The race's reading of a repetition's result. */
    public static RaceSample of(RepetitionResult r) {
        if (!r.ok() || r.throughput().roundTripsPerSecond() == null || r.rtt().latency() == null) {
            return new RaceSample(null, null, null, null, false,
                    r.error() != null ? r.error() : "the repetition measured nothing");
        }
        Long messages = r.throughput().messages();
        Double cpu = r.resources().cpu() == null || messages == null || messages == 0 ? null
                : r.resources().cpu().seconds() / messages * 1e6;
        Long rss = r.resources().memory() == null ? null : r.resources().memory().peakRssBytes();
        return new RaceSample(r.throughput().roundTripsPerSecond(), r.rtt().latency().p99Us(), cpu, rss,
                !r.clean(), null);
    }

    /** Whether the repetition can be compared: it passed without a warning ({@link RepetitionResult#clean()}). */
    public boolean clean() {
        return failure == null && !warned;
    }

    /** The value raced on: throughput for a closed load, p99 for an open one. */
    public double value(RaceMetric metric) {
        return metric == RaceMetric.THROUGHPUT ? roundTripsPerSecond : p99Us;
    }
}
