package io.loopbench.engine;

import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.process.JitActivity;

/**
 * Every error counter of the warm-up and the measured phase, and the warm-up's own result: a repetition fails on the
 * first error or on a phase without an echo, the warm-up's first. A capped auto warm-up warns when throughput held it
 * back; when the JIT did, it is a note, since the measured phase's own JIT check judges that.
 */
final class ErrorsStage implements RepetitionStage {

    @Override
    public void run(RepetitionState s) {
        PhaseCounts m = s.measured.counts();
        s.errors = s.errors(m, MessageFormat.MEASURED_TAG, s.measured.phase().drainTimedOut());
        if (s.warmup != null) {
            warmup(s);
        }
        if (s.errors.total() > 0) {
            s.fail(new Failure.ErrorCounters("measured phase", s.errors.describeNonZero(), s.firstError(m)));
        } else if (m.messages() == 0) {
            s.fail(new Failure.NoEcho("measured phase"));
        }
    }

    private static void warmup(RepetitionState s) {
        PhaseRunner.Outcome phase = s.warmup.phase();
        PhaseCounts w = s.sum(MessageFormat.WARMUP_TAG);
        ErrorCounts errors = s.errors(w, MessageFormat.WARMUP_TAG, phase.drainTimedOut());
        s.warmupResult = new WarmupResult(s.spec.warmupMode(), phase.elapsedNanos() / 1e9, w.messages(), errors,
                phase.stoppedBecause(), s.warmup.rounds().heldBackBy(), s.events == null ? null
                : s.events.activity(phase.from(), phase.to(), JitActivity.capacityNanos(phase.elapsedNanos())));
        if (errors.total() > 0) {
            s.fail(new Failure.ErrorCounters("warmup", errors.describeNonZero(), s.firstError(w)));
        } else if (w.messages() == 0) {
            s.fail(new Failure.NoEcho("warmup"));
        }
        if (s.warmupResult.capped()) {
            (s.warmup.rounds().byJit() ? s.notes : s.warnings).add(s.warmupResult.capWords(s.spec.warmupMaxSeconds()));
        }
    }
}
