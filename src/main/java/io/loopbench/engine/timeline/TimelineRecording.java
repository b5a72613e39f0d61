package io.loopbench.engine.timeline;

import io.loopbench.engine.latency.LatencyHistograms;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One phase's timeline as it is recorded — the warm-up (all its rounds) or the measured phase: intervals of a fixed
 * length from the phase's start, each cut by the time of the events in it. Every client thread records into its own
 * {@link IntervalRecorder} and hands over each interval as the next begins; this recording gathers them, merges the
 * threads' shares of each interval and, once every thread has moved past an interval, closes it: its figures
 * ({@link TimelineInterval}), told to the listener at once (the live timeline) together with its histogram, whose
 * RTTs the measured phase adds to its total. The phase's last interval takes in everything after it, so that its drain
 * does not make an interval of its own; the warm-up, whose end is not known before it comes, holds back its last two
 * intervals until then.
 *
 * <p>Histograms travel from the threads to here and back, recycled: a thread swaps its full one for a spare, so that
 * recording allocates nothing once a few are in circulation. They grow to the largest RTT they hold, so that merging,
 * percentiles and clearing cost in proportion to the range of RTTs seen, not to an hour's; they are of the same class
 * as every other RTT histogram, so that recording calls stay monomorphic for the JIT.
 *
 * <p>Thread ownership: made, collected ({@link #collect}) and finished by the repetition's thread; the recorders hand
 * over and take histograms through two concurrent queues, the only state they share with it.
 */
public final class TimelineRecording {

    /** Told of each interval as it closes, with its RTTs (nanoseconds), which it must not keep past the call. */
    public interface Listener {
        void interval(TimelineInterval interval, AbstractHistogram rtt);
    }

    /**
     * A finished phase's timeline: its intervals, every RTT of them (the warm-up's too, so that the measured phase
     * runs no path the warm-up did not), the same RTTs by recorder, and its span on the wall clock.
     */
    public record Result(List<TimelineInterval> intervals, Histogram rtt, Map<Object, Histogram> rttByRecorder,
                         Instant from, Instant to, double intervalSeconds) {
    }

    private final String phase;
    private final long origin;
    private final Instant wallOrigin;
    private final long timelineOrigin;
    private final long intervalNanos;
    /** The measured phase's last interval, known from its length; -1 for the warm-up, known only at its end. */
    private final long fixedLast;
    private final Listener listener;

    private final Map<Object, IntervalRecorder> recorders = new java.util.HashMap<>();
    private final ConcurrentLinkedQueue<IntervalRecorder.Closed> closed = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<AbstractHistogram> spare = new ConcurrentLinkedQueue<>();
    /** Shares of intervals not closed yet, merged per interval. */
    private final TreeMap<Long, Share> open = new TreeMap<>();
    private final List<TimelineInterval> intervals = new ArrayList<>();
    private final Histogram total = LatencyHistograms.create();
    /** Every RTT handed over, by recorder: added once per interval and recorder, on this recording's thread. */
    private final Map<Object, Histogram> totalByRecorder = new java.util.HashMap<>();
    /** The next interval to close, and when {@link #collect} next looks whether it can ({@link System#nanoTime()}). */
    private long next;
    private long nextLook;

    /**
     * A phase's recording, its intervals counted from now.
     *
     * @param phase         {@code warmup} or {@code measured}
     * @param before        the repetition's earlier phase's recording, from whose start intervals' start times count;
     *                      null for its first phase
     * @param intervalNanos the intervals' length
     * @param seconds       the measured phase's length, which fixes its last interval; 0 for the warm-up
     */
    public TimelineRecording(String phase, TimelineRecording before, long intervalNanos, double seconds,
                             Listener listener) {
        this.phase = phase;
        this.origin = System.nanoTime();
        this.wallOrigin = Instant.now();
        this.timelineOrigin = before == null ? origin : before.timelineOrigin;
        this.intervalNanos = intervalNanos;
        this.fixedLast = seconds > 0 ? Math.max(0, (long) Math.ceil(seconds * 1e9 / intervalNanos - 1e-6) - 1) : -1;
        this.listener = listener;
        this.nextLook = closableFrom(0);
    }

    /** The recorder of one client thread, made on first use; before the phase's first round only. */
    public IntervalRecorder recorder(Object owner) {
        return recorders.computeIfAbsent(owner, k -> {
            // three spares per thread, made before the phase: one to swap in while the last waits to be collected,
            // one for its share of the interval being merged, one for the interval after
            for (int i = 0; i < 3; i++) {
                spare.add(newHistogram());
            }
            totalByRecorder.put(owner, LatencyHistograms.create());
            return new IntervalRecorder(this, owner);
        });
    }

    /** Every client thread's recorder, by thread (read-only). */
    public Map<Object, IntervalRecorder> recorders() {
        return java.util.Collections.unmodifiableMap(recorders);
    }

    /**
     * Closes the intervals every thread has moved past (all but the phase's last). Called often; it works only once
     * the next interval can have closed, so that its code runs as often in the measured phase as in the warm-up, about
     * once per interval, and the JIT compiles it where it compiles the rest.
     */
    public void collect() {
        long now = System.nanoTime();
        if (now - nextLook < 0) {
            return;
        }
        long complete = Long.MAX_VALUE;
        for (IntervalRecorder r : recorders.values()) {
            complete = Math.min(complete, r.index()); // read before draining: what they handed over is then queued
        }
        drain();
        long below = Math.min(complete, fixedLast >= 0 ? fixedLast : indexOf(now) - 1);
        while (next < below) {
            close(next, intervalNanos);
        }
        // a thread yet to move on (a stall) is looked at again a quarter of an interval later
        nextLook = Math.max(closableFrom(next), now + intervalNanos / 4);
    }

    /**
     * When interval {@code index} can first be closed: at its end, or for the warm-up, whose last two intervals wait
     * for its end, at the next one's.
     */
    private long closableFrom(long index) {
        return endOf(fixedLast >= 0 ? index : index + 1);
    }

    /**
     * After the phase's last barrier: takes every thread's open interval and closes the rest, the last one running to
     * {@code end} ({@link System#nanoTime()}).
     */
    public Result finish(long end) {
        for (IntervalRecorder r : recorders.values()) {
            r.takeOpen();
        }
        drain();
        long last = fixedLast >= 0 ? fixedLast : Math.max(0, Math.round((double) (end - origin) / intervalNanos) - 1);
        last = Math.max(last, next);
        Share tail = open.computeIfAbsent(last, k -> new Share(spareHistogram()));
        for (Share later : List.copyOf(open.tailMap(last, false).values())) {
            tail.add(later);
            recycle(later.rtt);
        }
        open.tailMap(last, false).clear();
        while (next < last) {
            close(next, intervalNanos);
        }
        close(last, Math.max(1, end - (origin + last * intervalNanos)));
        Instant to = wallOrigin.plusNanos(end - origin);
        return new Result(List.copyOf(intervals), total, java.util.Collections.unmodifiableMap(totalByRecorder),
                wallOrigin, to, intervalNanos / 1e9);
    }

    /** The interval {@code at} ({@link System#nanoTime()}) falls in. */
    long indexOf(long at) {
        return Math.max(0, (at - origin) / intervalNanos);
    }

    /** When interval {@code index} ends. */
    long endOf(long index) {
        return origin + (index + 1) * intervalNanos;
    }

    /** The interval an instant on the wall clock falls in, the last for any after it; -1 before the phase. */
    static long indexOf(Instant at, Instant from, double intervalSeconds, int intervals) {
        if (at.isBefore(from)) {
            return -1;
        }
        long nanos = Duration.between(from, at).toNanos();
        return Math.min(intervals - 1, (long) (nanos / (intervalSeconds * 1e9)));
    }

    /** A recorder's hand-over: a spare histogram, or a new one when none is back yet. */
    AbstractHistogram spareHistogram() {
        AbstractHistogram h = spare.poll();
        return h != null ? h : newHistogram();
    }

    void closed(IntervalRecorder.Closed c) {
        closed.add(c);
    }

    private void drain() {
        for (IntervalRecorder.Closed c = closed.poll(); c != null; c = closed.poll()) {
            Share s = open.computeIfAbsent(c.index(), k -> new Share(spareHistogram()));
            s.add(c);
            totalByRecorder.get(c.owner()).add(c.rtt());
            recycle(c.rtt());
        }
    }

    private void close(long index, long lengthNanos) {
        Share s = open.remove(index);
        AbstractHistogram rtt = s != null ? s.rtt : spareHistogram();
        long messages = s != null ? s.messages : 0;
        double seconds = lengthNanos / 1e9;
        TimelineInterval interval = TimelineInterval.of(phase, seconds(origin + index * intervalNanos - timelineOrigin),
                seconds(lengthNanos), messages, Math.round(messages / seconds * 10) / 10.0, rtt,
                s != null ? s.late : 0, s != null ? s.dropped : 0);
        intervals.add(interval);
        rtt.setStartTimeStamp(wallOrigin.plusNanos(index * intervalNanos).toEpochMilli());
        rtt.setEndTimeStamp(wallOrigin.plusNanos(index * intervalNanos + lengthNanos).toEpochMilli());
        total.add(rtt);
        listener.interval(interval, rtt);
        recycle(rtt);
        next = index + 1;
    }

    private void recycle(AbstractHistogram h) {
        if (h.getTotalCount() > 0) {
            h.reset();
        }
        h.setTag(null); // a listener may have tagged it for a log
        spare.add(h);
    }

    /** An empty interval histogram: 3 significant digits, growing to the largest RTT recorded. */
    private static AbstractHistogram newHistogram() {
        return new Histogram(3);
    }


    /** A number of nanoseconds in seconds, to the microsecond. */
    private static double seconds(long nanos) {
        return Math.round(nanos / 1000.0) / 1e6;
    }

    /** The threads' shares of one interval, merged. */
    private static final class Share {
        final AbstractHistogram rtt;
        long messages;
        long late;
        long dropped;

        Share(AbstractHistogram rtt) {
            this.rtt = rtt;
        }

        void add(IntervalRecorder.Closed c) {
            rtt.add(c.rtt());
            messages += c.messages();
            late += c.late();
            dropped += c.dropped();
        }

        void add(Share other) {
            rtt.add(other.rtt);
            messages += other.messages;
            late += other.late;
            dropped += other.dropped;
        }
    }
}
