package io.loopbench.engine;

import io.loopbench.engine.process.GcActivity;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.process.JvmEvents;

import java.util.Locale;

/**
 * The JVM's activity during the measured phase: its collections, and the JIT's compilations and deoptimizations,
 * read from the flight recorder once it has handed over the phase's events. A phase that was not JIT-quiet warns —
 * unless the server's blocking call dwarfs all the CPU a round trip costs, where it is a note (see
 * {@link #immaterial}); events that could not be read are a note.
 */
final class JvmStage implements RepetitionStage {

    /** The blocking call per echo must be at least this many times the CPU per round trip for the JIT not to matter. */
    static final int IMMATERIAL_FACTOR = 10;

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
                String immaterial = immaterial(s.spec.blockingMicros(), m.cpuNanos(),
                        s.measured.counts().messages());
                if (immaterial == null) {
                    s.warnings.add(jit.warning());
                } else {
                    s.notes.add(jit.warning() + "; " + immaterial);
                }
            }
        }
        s.jvm = new JvmActivity(jit, new GcActivity(m.gcCollections(), m.gcMillis()));
    }

    /**
     * Why compilations in the measured phase cannot move its figures much, or null where they can. The JIT changes a
     * figure only through the CPU the code takes; where the process's CPU per round trip, every thread's, is at most a
     * tenth of each echo's blocking call, even code that took no time at all would shorten a round trip by under
     * 10 %, and real compilations (at most a few times faster code) by far less. At low rates — a blocking call
     * of 1 ms allows 1,000 echoes/s a loop — the echo path reaches C2's invocation thresholds only after seconds, so
     * such a phase is almost never JIT-quiet, and a warning would leave every one of its repetitions out of verdicts.
     */
    static String immaterial(int blockingMicros, long cpuNanos, long roundTrips) {
        if (blockingMicros <= 0 || roundTrips <= 0) {
            return null;
        }
        double cpuMicrosPerRoundTrip = cpuNanos / 1e3 / roundTrips;
        if (cpuMicrosPerRoundTrip * IMMATERIAL_FACTOR > blockingMicros) {
            return null;
        }
        return String.format(Locale.ROOT, "immaterial: the process's CPU per round trip, %.1f µs, is at most a tenth "
                + "of each echo's %,d µs blocking call, so even code that took no time would shorten a round trip by "
                + "under 10 %%", cpuMicrosPerRoundTrip, blockingMicros);
    }
}
