package io.loopbench.engine;

import io.loopbench.engine.timeline.TimelineInterval;
import org.HdrHistogram.AbstractHistogram;

/** Told where a measurement is; called on the thread that runs the measurement. */
public interface ProgressListener {

    ProgressListener NONE = new ProgressListener() {
    };

    /** A phase ({@code warmup} or {@code measured}) of repetition {@code repetition} (1-based) has begun. */
    default void phaseStarted(int repetition, String phase, double seconds) {
    }

    /**
     * An interval of repetition {@code repetition}'s timeline has closed, within a few of its lengths of its end (a
     * phase's last interval at the phase's end); {@code rtt} holds its RTTs in nanoseconds, with its start and end
     * time stamps, and is reused after the call.
     */
    default void intervalRecorded(int repetition, TimelineInterval interval, AbstractHistogram rtt) {
    }

    /**
     * Repetition {@code repetition}'s measured phase began (its clients told to begin) and was stopped (its clients
     * told to stop) at these instants of {@link System#nanoTime()}, this process's clock; its drain followed.
     */
    default void measuredPhaseRan(int repetition, long startNanos, long stopNanos) {
    }

    default void repetitionFinished(RepetitionResult result) {
    }
}
