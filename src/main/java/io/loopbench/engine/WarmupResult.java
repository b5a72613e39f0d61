package io.loopbench.engine;

import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.spec.WarmupMode;

/**
 * The warm-up phase of a repetition: how long it ran and why it stopped, its messages, errors (any error fails the
 * repetition) and JIT activity.
 *
 * @param mode           {@code fixed} or {@code auto}
 * @param elapsedSeconds warm-up wall time, drain included
 * @param messages       validated echoes in the warm-up
 * @param errors         the warm-up's error counters
 * @param stoppedBecause {@code time}: a fixed warm-up ran its warmupSeconds; {@code steady}: an auto warm-up found
 *                       its last span's (0.6 s) throughput within 10 % of the span before's and JIT-quiet by the
 *                       measured phase's own rule, with at most 3 changes of measured-path code rather than 5;
 *                       {@code cap}: an auto warm-up reached warmupMaxSeconds without that
 * @param heldBackBy     {@code cap} only: the criterion that held the warm-up back at its last check, in words, e.g.
 *                       "throughput moved +14.2 % from one span to the next (at most ±10 %)" or "JIT over the last
 *                       span: 2 C2/OSR compilations of measured-path code" (records stored before 2026-12-05 say
 *                       "second" where these say "span")
 * @param jit            JIT activity during the warm-up
 */
public record WarmupResult(WarmupMode mode, double elapsedSeconds, long messages, ErrorCounts errors,
                           String stoppedBecause, String heldBackBy, JitActivity jit) {

    public static final String TIME = "time";
    public static final String STEADY = "steady";
    public static final String CAP = "cap";

    /** Whether an auto warm-up reached its cap before it was steady. */
    public boolean capped() {
        return CAP.equals(stoppedBecause);
    }

    /** What a capped warm-up says of itself: "auto warm-up reached its cap of 10.0 s: throughput moved …". */
    String capWords(double capSeconds) {
        return "auto warm-up reached its cap of " + capSeconds + " s: " + heldBackBy;
    }
}
