package io.loopbench.runs;

import io.loopbench.engine.spec.Labeled;

/**
 * Where a run's repetitions execute: {@code forked}, each in a fresh JVM started from the {@code measure} entry
 * point, so that the service's threads, heap and CPU stay out of the figures; or {@code in-process}, in the
 * service's own JVM, for quick runs and tests.
 */
public enum Isolation implements Labeled {
    FORKED, IN_PROCESS;

    @Override
    public String label() {
        return this == FORKED ? "forked" : "in-process";
    }
}
