package io.loopbench.cluster;

import io.loopbench.engine.process.ProcessMetrics;

import java.time.Instant;

/**
 * This process's clocks, CPU time and collections at the start of a measured phase, from which a server agent's part
 * is measured. Immutable.
 */
record PhaseStart(long nanos, Instant wall, long cpuNanos, long gcCollections, long gcMillis) {

    static PhaseStart now() {
        long[] gc = ProcessMetrics.gc();
        return new PhaseStart(System.nanoTime(), Instant.now(), ProcessMetrics.cpuNanos(), gc[0], gc[1]);
    }
}
