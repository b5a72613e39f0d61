package io.loopbench.runs;

import io.loopbench.storage.EventStreams;

/** Server-Sent Events of runs (see {@link EventStreams}). */
public class RunEvents extends EventStreams<RunRecord> implements RunListener {

    public RunEvents() {
        super(RunRecord::id, r -> r.status().isFinished(), r -> r.status() == RunStatus.RUNNING, RunRecord::asOf);
    }
}
