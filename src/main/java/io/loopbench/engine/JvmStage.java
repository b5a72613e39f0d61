package io.loopbench.engine;

import io.loopbench.engine.process.GcActivity;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.process.JvmEvents;

/**
 * The JVM's activity during the measured phase: its collections, and the JIT's compilations and deoptimizations,
 * read from the flight recorder once it has handed over the phase's events. A phase that was not JIT-quiet warns;
 * events that could not be read are a note.
 */
final class JvmStage implements RepetitionStage {

    @Override
    public void run(RepetitionState s) {
        PhaseRunner.Outcome m = s.measured.phase();
        JitActivity jit = null;
        if (s.events != null) {
            if (!s.events.awaitEvents()) {
                s.notes.add(JvmEvents.UNKNOWN_NOTE);
            }
            jit = s.events.activity(m.from(), m.to(), JitActivity.capacityNanos(m.elapsedNanos()));
            if (!jit.quiet()) {
                s.warnings.add(jit.warning());
            }
        }
        s.jvm = new JvmActivity(jit, new GcActivity(m.gcCollections(), m.gcMillis()));
    }
}
