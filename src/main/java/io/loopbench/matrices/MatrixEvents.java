package io.loopbench.matrices;

import io.loopbench.runs.RunStatus;
import io.loopbench.storage.EventStreams;

/** Server-Sent Events of matrices: progress (step i of n, ETA) at least once a second, then the outcome. */
public class MatrixEvents extends EventStreams<MatrixRecord> {

    public MatrixEvents() {
        super(MatrixRecord::id, m -> m.status().isFinished(), m -> m.status() == RunStatus.RUNNING,
                MatrixRecord::asOf);
    }
}
