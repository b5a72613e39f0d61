package io.loopbench.engine;

import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.MemoryUsage;

/**
 * The measuring process's CPU and memory over a repetition's measured phase. Immutable.
 *
 * @param cpu    process CPU over the measured phase and its drain
 * @param memory resident memory at the end of the measured phase, and its peak
 */
public record ResourceUse(CpuUsage cpu, MemoryUsage memory) {

    public static final ResourceUse NONE = new ResourceUse(null, null);
}
