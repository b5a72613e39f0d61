package io.loopbench.engine;

import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.timeline.TimelineInterval;
import io.loopbench.engine.timeline.TimelineRecording;

/** Runs the warm-up's rounds ({@link WarmupRounds}), when the spec has a warm-up, into a timeline of its own. */
final class WarmupStage implements RepetitionStage {

    @Override
    public void run(RepetitionState s) throws Exception {
        if (s.spec.warmupSeconds() <= 0) {
            return;
        }
        s.progress.phaseStarted(s.index, TimelineInterval.WARMUP, s.spec.warmupLimitSeconds());
        TimelineRecording recording = new TimelineRecording(TimelineInterval.WARMUP, null, s.timelineIntervalNanos(), 0,
                s.toProgress());
        WarmupRounds.Outcome rounds = new WarmupRounds(s.spec, s.jvmEvents).run(s.phases, recording,
                () -> s.sum(MessageFormat.WARMUP_TAG).messages());
        s.warmup = new RepetitionState.WarmupPhase(rounds.phase(), rounds, recording,
                recording.finish(rounds.phase().endNanos()));
    }
}
