package io.loopbench.jobs;

import io.loopbench.engine.spec.Labeled;

/** Where a run is in its life. {@code interrupted}: the service stopped while it ran. */
public enum RunStatus implements Labeled {
    QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED, INTERRUPTED;

    public boolean isFinished() {
        return this != QUEUED && this != RUNNING;
    }
}
