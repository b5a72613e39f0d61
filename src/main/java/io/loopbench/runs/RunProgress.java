package io.loopbench.runs;

/**
 * Where a running run is.
 *
 * @param repetition       1-based repetition now running (0 before the first)
 * @param repetitions      how many the run has
 * @param phase            {@code starting}, {@code warmup}, {@code measured} or {@code finishing}
 * @param elapsedSeconds   since the run started
 * @param remainingSeconds estimated, from the spec's phase durations and the repetitions left
 * @param timeline         the running repetition's timeline so far: how many intervals have closed and the latest
 *                         (its chart: {@code /api/runs/{id}/live/timeline.svg}); null before its first, and never
 *                         stored
 */
public record RunProgress(int repetition, int repetitions, String phase, double elapsedSeconds,
                          double remainingSeconds, LiveTimelines.Progress timeline) {

    RunProgress withTimeline(LiveTimelines.Progress t) {
        return new RunProgress(repetition, repetitions, phase, elapsedSeconds, remainingSeconds, t);
    }
}
