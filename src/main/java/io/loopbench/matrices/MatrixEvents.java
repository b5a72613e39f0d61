package io.loopbench.matrices;

import io.loopbench.jobs.RunStatus;
import io.loopbench.events.EventStreams;
import io.loopbench.events.EventStreamsProperties;

import java.util.Optional;
import java.util.function.Function;

/** Server-Sent Events of matrices: progress (step i of n, ETA) at least once a second, then the outcome. */
public class MatrixEvents extends EventStreams<MatrixRecord> {

    /** @param lookup the stored matrix of an id ({@link MatrixStore#find}) */
    public MatrixEvents(EventStreamsProperties settings, Slots slots,
                        Function<String, Optional<MatrixRecord>> lookup) {
        super(MatrixRecord::id, m -> m.status().isFinished(), m -> m.status() == RunStatus.RUNNING,
                MatrixRecord::asOf, lookup, settings, slots);
    }
}
