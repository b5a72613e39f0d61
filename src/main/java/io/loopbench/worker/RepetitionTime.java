package io.loopbench.worker;

import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;

/**
 * How long one repetition is planned to take: the one estimate that a run's, a matrix's and a race's plans all use.
 * Stateless.
 */
public final class RepetitionTime {

    /**
     * Seconds a forked repetition spends outside its warm-up and measured phase (spawn, JVM start, connections, the
     * phases' drains, exit): 0.8 s (tcp) to 1.4 s (https) at the median on a 2-vCPU VM, from the AOT-cached worker's
     * start (docs/performance.md, "Repetition cost").
     */
    public static final double FORKED_OVERHEAD_SECONDS = 1.5;
    /** The same in the service's own JVM: connections and drains only. */
    public static final double IN_PROCESS_OVERHEAD_SECONDS = 0.5;
    /**
     * Where between its least and its cap an auto warm-up is planned to end: a quarter of the way, since the default
     * 1 … 10 s took 2.0 s (tcp) to 4.8 s (http) at the median (docs/performance.md, "Warm-up length").
     */
    static final double AUTO_WARMUP_SHARE = 0.25;

    private RepetitionTime() {
    }

    /** The warm-up a repetition of {@code spec} is planned to take: a fixed one, or an auto one's planned end. */
    public static double warmupSeconds(RunSpec spec) {
        if (spec.warmupMode() != WarmupMode.AUTO || spec.warmupSeconds() <= 0) {
            return spec.warmupSeconds();
        }
        return spec.warmupSeconds() + AUTO_WARMUP_SHARE * (spec.warmupLimitSeconds() - spec.warmupSeconds());
    }

    /** Seconds one repetition of {@code spec} is planned to take, in a fresh JVM or in the caller's. */
    public static double seconds(RunSpec spec, boolean forked) {
        return warmupSeconds(spec) + spec.seconds() + (forked ? FORKED_OVERHEAD_SECONDS : IN_PROCESS_OVERHEAD_SECONDS);
    }
}
