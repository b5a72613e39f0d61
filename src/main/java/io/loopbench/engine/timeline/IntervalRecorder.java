package io.loopbench.engine.timeline;

import io.loopbench.engine.latency.LatencyHistograms;
import org.HdrHistogram.AbstractHistogram;

/**
 * One client thread's share of a phase's timeline: the RTTs and counts of the interval running now, which it hands
 * to its {@link TimelineRecording} whole when an event falls past the interval's end (a swap of histograms, nothing
 * stops). Intervals are cut by each event's own time, so a value lands in the interval it happened in, however late
 * the thread gets to it; an interval in which nothing happened on this thread is never handed over (it is empty).
 *
 * <p>Thread ownership: written only by its client thread (an event loop, or a virtual-threads client's own thread)
 * during a phase; the repetition's thread reads {@link #index()} at any time (volatile) and takes the open interval
 * ({@link #takeOpen()}) only after the phase's barrier has run on that thread.
 */
public final class IntervalRecorder {

    private final TimelineRecording recording;
    /** Whose RTTs these are (the key it was made for), handed over with each interval. */
    private final Object owner;
    private AbstractHistogram rtt;
    private long messages;
    private long late;
    private long dropped;
    /** The interval running now, and when it ends ({@link System#nanoTime()}). */
    private volatile long index;
    private long end;

    IntervalRecorder(TimelineRecording recording, Object owner) {
        this.recording = recording;
        this.owner = owner;
        this.rtt = recording.spareHistogram();
        this.end = recording.endOf(0);
    }

    /** A validated echo came back at {@code now}; its RTT, if it has one, follows through {@link #record}. */
    public void echoed(long now) {
        if (now - end >= 0) {
            roll(now);
        }
        messages++;
    }

    /** Records an RTT into the interval of the last {@link #echoed} (the same instant). */
    public void record(long rttNanos) {
        LatencyHistograms.record(rtt, rttNanos);
    }

    /**
     * Open load: {@code count} messages never delivered, each counted at {@code now} with the least RTT it had,
     * {@code rttNanos} (censored: it never arrived).
     */
    public void censored(long now, long rttNanos, long count) {
        if (now - end >= 0) {
            roll(now);
        }
        LatencyHistograms.record(rtt, rttNanos, count);
    }

    /** Open load: a message was sent late at {@code now}. */
    public void late(long now) {
        if (now - end >= 0) {
            roll(now);
        }
        late++;
    }

    /** Open load: {@code count} messages due by {@code now} were never sent. */
    public void dropped(long now, long count) {
        if (now - end >= 0) {
            roll(now);
        }
        dropped += count;
    }

    /** The interval running now; every one before it has been handed over. */
    long index() {
        return index;
    }

    /** Hands the open interval over, if anything happened in it, and starts the one {@code now} falls in. */
    private void roll(long now) {
        handOver();
        long next = recording.indexOf(now);
        end = recording.endOf(next);
        index = next; // volatile, after the hand-over: a reader that sees the new index finds the old interval queued
    }

    private void handOver() {
        if (messages > 0 || late > 0 || dropped > 0 || rtt.getTotalCount() > 0) {
            recording.closed(new Closed(owner, index, rtt, messages, late, dropped));
            rtt = recording.spareHistogram();
            messages = 0;
            late = 0;
            dropped = 0;
        }
    }

    /** After the phase's barrier, on the repetition's thread: hands over the open interval. */
    void takeOpen() {
        handOver();
    }

    /** One thread's share of one interval. */
    record Closed(Object owner, long index, AbstractHistogram rtt, long messages, long late, long dropped) {
    }
}
