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
 *                       throughput stable and no compilation for a while; {@code cap}: an auto warm-up reached
 *                       warmupMaxSeconds without that (the measured phase may then not be steady)
 * @param jit            JIT activity during the warm-up
 */
public record WarmupResult(WarmupMode mode, double elapsedSeconds, long messages, ErrorCounts errors,
                           String stoppedBecause, JitActivity jit) {

    public static final String TIME = "time";
    public static final String STEADY = "steady";
    public static final String CAP = "cap";
}
