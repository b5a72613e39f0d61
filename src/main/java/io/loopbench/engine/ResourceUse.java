package io.loopbench.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.loopbench.engine.offload.OffloadUse;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.MemoryUsage;

/**
 * The measuring process's CPU, memory and the threads of the server's work over a repetition. Immutable.
 *
 * @param cpu        process CPU over the measured phase and its drain
 * @param memory     resident memory at the end of the measured phase, and its peak
 * @param offloadUse how many threads the server's work kept busy (on average, at the most, distinct) and how many
 *                   hand-offs waited for an offload thread (on average, at the most), over the measured phase; absent
 *                   where the server has neither work nor an offload
 */
public record ResourceUse(CpuUsage cpu, MemoryUsage memory,
                          @JsonInclude(JsonInclude.Include.NON_NULL) OffloadUse offloadUse) {

    public static final ResourceUse NONE = new ResourceUse(null, null);

    public ResourceUse(CpuUsage cpu, MemoryUsage memory) {
        this(cpu, memory, null);
    }
}
