package io.loopbench.engine.timeline;

import org.HdrHistogram.AbstractHistogram;

/**
 * One interval of a repetition's timeline, as it closes (the live view; {@link Timeline} stores them by column).
 *
 * @param phase               {@code warmup} or {@code measured}
 * @param startSeconds        when it began, seconds since the repetition's first phase began
 * @param seconds             its length: the timeline's interval, but the phase's last one, which runs to the phase's
 *                            end (its drain and barrier included)
 * @param roundTrips          validated echoes received in it
 * @param roundTripsPerSecond roundTrips ÷ seconds
 * @param p50Us               median RTT of the echoes received in it, µs; 0 when it recorded no RTT
 * @param p99Us               99th percentile RTT, µs; 0 when it recorded no RTT
 * @param maxUs               largest RTT, µs; 0 when it recorded no RTT
 * @param lateMessages        open load: messages sent in it later than the late threshold; 0 under closed load
 * @param droppedMessages     open load: messages due in it that were never sent; 0 under closed load
 */
public record TimelineInterval(String phase, double startSeconds, double seconds, long roundTrips,
                               double roundTripsPerSecond, double p50Us, double p99Us, double maxUs,
                               long lateMessages, long droppedMessages) {

    /** The {@code phase} of the warm-up's intervals. */
    public static final String WARMUP = "warmup";
    /** The {@code phase} of the measured phase's intervals. */
    public static final String MEASURED = "measured";

    /** An interval whose percentiles are those of {@code rtt} (nanoseconds), in µs to the nanosecond; 0 without RTTs. */
    public static TimelineInterval of(String phase, double startSeconds, double seconds, long roundTrips,
                                      double roundTripsPerSecond, AbstractHistogram rtt, long lateMessages,
                                      long droppedMessages) {
        boolean any = rtt.getTotalCount() > 0;
        return new TimelineInterval(phase, startSeconds, seconds, roundTrips, roundTripsPerSecond,
                any ? rtt.getValueAtPercentile(50) / 1000.0 : 0, any ? rtt.getValueAtPercentile(99) / 1000.0 : 0,
                any ? rtt.getMaxValue() / 1000.0 : 0, lateMessages, droppedMessages);
    }
}
