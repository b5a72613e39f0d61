package io.loopbench.engine.timeline;

import io.loopbench.engine.process.JvmEvents;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * A repetition over time: its warm-up and measured phase in intervals of {@code intervalMillis} from each phase's
 * start, stored by column (one list per figure, one entry per interval, warm-up first), with what the process did in
 * each: garbage collections and their pauses, JIT compilations and deoptimizations (the flight recorder's events, as
 * the measured phase's JIT figures), and under open load the late and dropped messages. Built from the phases'
 * {@link TimelineRecording}s; immutable.
 *
 * @param intervalMillis      the intervals' length, ms (each phase's last runs to its end, its drain included)
 * @param warmupIntervals     how many of the intervals, the first, are the warm-up's; the measured phase begins at
 *                            {@code startSeconds[warmupIntervals]}
 * @param startSeconds        when each interval began, seconds since the first phase began
 * @param seconds             each interval's length, seconds
 * @param roundTrips          validated echoes received in each; the measured intervals' add up to the repetition's
 *                            {@code messages}
 * @param roundTripsPerSecond roundTrips ÷ seconds
 * @param p50Us               median RTT of each interval's echoes, µs (0: no RTT recorded in it)
 * @param p99Us               99th percentile, µs (0: none)
 * @param maxUs               largest RTT, µs (0: none)
 * @param gcCollections       garbage collections that began in each
 * @param gcPauseMillis       their pauses, summed, ms
 * @param compilations        JIT compilations that began in each
 * @param compileMillis       their compile time, ms
 * @param deoptimizations     deoptimizations in each
 * @param lateMessages        open load: messages sent in each later than the late threshold; null under closed load
 * @param droppedMessages     open load: messages due in each and never sent; null under closed load
 */
public record Timeline(int intervalMillis, int warmupIntervals, List<Double> startSeconds, List<Double> seconds,
                       List<Long> roundTrips, List<Double> roundTripsPerSecond, List<Double> p50Us,
                       List<Double> p99Us, List<Double> maxUs, List<Integer> gcCollections,
                       List<Double> gcPauseMillis, List<Integer> compilations, List<Double> compileMillis,
                       List<Integer> deoptimizations, List<Long> lateMessages, List<Long> droppedMessages) {

    public Timeline {
        startSeconds = List.copyOf(startSeconds);
        seconds = List.copyOf(seconds);
        roundTrips = List.copyOf(roundTrips);
        roundTripsPerSecond = List.copyOf(roundTripsPerSecond);
        p50Us = List.copyOf(p50Us);
        p99Us = List.copyOf(p99Us);
        maxUs = List.copyOf(maxUs);
        gcCollections = List.copyOf(gcCollections);
        gcPauseMillis = List.copyOf(gcPauseMillis);
        compilations = List.copyOf(compilations);
        compileMillis = List.copyOf(compileMillis);
        deoptimizations = List.copyOf(deoptimizations);
        lateMessages = lateMessages == null ? null : List.copyOf(lateMessages);
        droppedMessages = droppedMessages == null ? null : List.copyOf(droppedMessages);
    }

    /**
     * @param warmup   the warm-up's recording, or null without one
     * @param measured the measured phase's
     * @param events   the process's events over both (those outside either phase are left out)
     * @param open     whether the load is open (late and dropped messages are then kept)
     */
    public static Timeline of(int intervalMillis, TimelineRecording.Result warmup,
                              TimelineRecording.Result measured, List<JvmEvents.Event> events, boolean open) {
        List<TimelineInterval> all = new ArrayList<>();
        if (warmup != null) {
            all.addAll(warmup.intervals());
        }
        int warmupIntervals = all.size();
        all.addAll(measured.intervals());
        int n = all.size();
        int[] gc = new int[n];
        double[] gcMillis = new double[n];
        int[] compiled = new int[n];
        double[] compiledMillis = new double[n];
        int[] deoptimized = new int[n];
        for (JvmEvents.Event e : events) {
            int at = intervalOf(e, warmup, 0);
            if (at < 0) {
                at = intervalOf(e, measured, warmupIntervals);
            }
            if (at < 0) {
                continue;
            }
            switch (e.kind()) {
                case GC -> {
                    gc[at]++;
                    gcMillis[at] += e.durationNanos() / 1e6;
                }
                case COMPILATION -> {
                    compiled[at]++;
                    compiledMillis[at] += e.durationNanos() / 1e6;
                }
                case DEOPTIMIZATION -> deoptimized[at]++;
            }
        }
        return ofIntervals(intervalMillis, warmupIntervals, all, gc, gcMillis, compiled, compiledMillis, deoptimized,
                open);
    }

    /**
     * These intervals by column, the first {@code warmupIntervals} the warm-up's, with the process's marks in each
     * (one entry per interval: collections, their pauses in ms, compilations, their time in ms, deoptimizations);
     * late and dropped messages kept only under open load.
     */
    public static Timeline ofIntervals(int intervalMillis, int warmupIntervals, List<TimelineInterval> intervals,
                                       int[] gcCollections, double[] gcPauseMillis, int[] compilations,
                                       double[] compileMillis, int[] deoptimizations, boolean open) {
        return new Timeline(intervalMillis, warmupIntervals, column(intervals, TimelineInterval::startSeconds),
                column(intervals, TimelineInterval::seconds), column(intervals, TimelineInterval::roundTrips),
                column(intervals, TimelineInterval::roundTripsPerSecond), column(intervals, TimelineInterval::p50Us),
                column(intervals, TimelineInterval::p99Us), column(intervals, TimelineInterval::maxUs),
                Arrays.stream(gcCollections).boxed().toList(), rounded(gcPauseMillis),
                Arrays.stream(compilations).boxed().toList(), rounded(compileMillis),
                Arrays.stream(deoptimizations).boxed().toList(),
                open ? column(intervals, TimelineInterval::lateMessages) : null,
                open ? column(intervals, TimelineInterval::droppedMessages) : null);
    }

    /**
     * A running repetition's timeline so far, from its intervals as they closed: without the process's marks, which
     * the flight recorder hands over only later (their columns are zeros), and without late and dropped messages.
     */
    public static Timeline live(int intervalMillis, List<TimelineInterval> intervals) {
        int warmupIntervals = (int) intervals.stream().filter(i -> i.phase().equals(TimelineInterval.WARMUP)).count();
        List<Integer> none = java.util.Collections.nCopies(intervals.size(), 0);
        List<Double> noTime = java.util.Collections.nCopies(intervals.size(), 0.0);
        return new Timeline(intervalMillis, warmupIntervals, column(intervals, TimelineInterval::startSeconds),
                column(intervals, TimelineInterval::seconds), column(intervals, TimelineInterval::roundTrips),
                column(intervals, TimelineInterval::roundTripsPerSecond), column(intervals, TimelineInterval::p50Us),
                column(intervals, TimelineInterval::p99Us), column(intervals, TimelineInterval::maxUs), none, noTime,
                none, noTime, none, null, null);
    }

    /** How many intervals it has. */
    public int size() {
        return startSeconds.size();
    }

    /** The index, among all intervals, of the one a phase's event began in; -1 when it began outside the phase. */
    private static int intervalOf(JvmEvents.Event e, TimelineRecording.Result phase, int first) {
        if (phase == null || e.start().isAfter(phase.to())) {
            return -1;
        }
        long i = TimelineRecording.indexOf(e.start(), phase.from(), phase.intervalSeconds(),
                phase.intervals().size());
        return i < 0 ? -1 : first + (int) i;
    }

    private static <T> List<T> column(List<TimelineInterval> intervals, Function<TimelineInterval, T> figure) {
        return intervals.stream().map(figure).toList();
    }

    /** Milliseconds to the microsecond. */
    private static List<Double> rounded(double[] millis) {
        return Arrays.stream(millis).map(m -> Math.round(m * 1000) / 1000.0).boxed().toList();
    }
}
