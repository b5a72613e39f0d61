package io.loopbench.engine;

import io.loopbench.engine.process.GcActivity;
import io.loopbench.engine.process.JitActivity;

/**
 * What the JVM's compilers and collector did during a repetition's measured phase. Immutable.
 *
 * @param jit JIT compilations and deoptimizations; null where not watched (records stored before they were too)
 * @param gc  garbage collections
 */
public record JvmActivity(JitActivity jit, GcActivity gc) {

    public static final JvmActivity NONE = new JvmActivity(null, null);
}
