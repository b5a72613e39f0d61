package io.loopbench.engine;

/** Told where a measurement is; called on the thread that runs the measurement. */
public interface ProgressListener {

    ProgressListener NONE = new ProgressListener() {
    };

    /** A phase ({@code warmup} or {@code measured}) of repetition {@code repetition} (1-based) has begun. */
    default void phaseStarted(int repetition, String phase, double seconds) {
    }

    default void repetitionFinished(RepetitionResult result) {
    }
}
