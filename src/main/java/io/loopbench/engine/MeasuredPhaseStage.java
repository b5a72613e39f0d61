package io.loopbench.engine;

import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.process.JvmEvents;
import io.loopbench.engine.process.MemoryUsage;
import io.loopbench.engine.process.ProcessMetrics;
import io.loopbench.engine.profile.CpuProfiler;
import io.loopbench.engine.timeline.TimelineInterval;
import io.loopbench.engine.timeline.TimelineRecording;

import java.util.function.Consumer;

/**
 * Runs the measured phase: its timeline continues the warm-up's, the CPU profile samples it and its drain only
 * (restarted last, stopped first), the server's work is gauged from its start, and the process's memory is read at its
 * end, before anything else allocates.
 */
final class MeasuredPhaseStage implements RepetitionStage {

    @Override
    public void run(RepetitionState s) throws Exception {
        // Waits, if need be, for the monitor started after the warm-up's first round (or starts it, with no warm-up):
        // the measured phase's events must all be seen. A fresh JVM's warm-up activity counts only what the monitor
        // saw: it misses its first round or more.
        s.events = s.jvmEvents ? JvmEvents.get() : null;
        s.control.beforeMeasuredPhase();
        s.progress.phaseStarted(s.index, TimelineInterval.MEASURED, s.spec.seconds());
        TimelineRecording recording = new TimelineRecording(TimelineInterval.MEASURED,
                s.warmup == null ? null : s.warmup.recording(), s.timelineIntervalNanos(), s.spec.seconds(),
                s.toProgress());
        sample(s, CpuProfiler.Session::restart);
        if (s.offloadGauge != null) {
            s.offloadGauge.restart(); // the warm-up drained: nothing is in work
        }
        PhaseRunner.Outcome phase = s.phases.run(MessageFormat.MEASURED_TAG, s.spec.seconds(), recording);
        sample(s, CpuProfiler.Session::stop);
        s.progress.measuredPhaseRan(s.index, phase.endNanos() - phase.elapsedNanos(), phase.stoppedNanos());
        MemoryUsage memory = ProcessMetrics.memory(); // first: what follows allocates
        s.measured = new RepetitionState.MeasuredPhase(phase, recording.finish(phase.endNanos()), memory,
                s.sum(MessageFormat.MEASURED_TAG));
    }

    /** One step of the profile's sampling, unless there is none or an earlier step failed (which it then says). */
    private static void sample(RepetitionState s, Consumer<CpuProfiler.Session> step) {
        if (s.profiling == null || s.noProfile != null) {
            return;
        }
        try {
            step.accept(s.profiling);
        } catch (IllegalStateException e) {
            s.noProfile = e.getMessage();
        }
    }
}
