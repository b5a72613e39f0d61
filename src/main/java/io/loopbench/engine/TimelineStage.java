package io.loopbench.engine;

import io.loopbench.engine.timeline.Timeline;

import java.util.List;

/** The repetition over time: the warm-up's and the measured phase's intervals, with the JVM's events in them. */
final class TimelineStage implements RepetitionStage {

    @Override
    public void run(RepetitionState s) {
        PhaseRunner.Outcome measured = s.measured.phase();
        s.timeline = Timeline.of(s.spec.timelineIntervalMillis(), s.warmup == null ? null : s.warmup.timeline(),
                s.measured.timeline(), s.events == null ? List.of()
                        : s.events.eventsIn(s.warmup != null ? s.warmup.phase().from() : measured.from(), measured.to()),
                s.open());
    }
}
