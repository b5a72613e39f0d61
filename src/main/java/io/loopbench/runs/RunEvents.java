package io.loopbench.runs;

import io.loopbench.jobs.RunStatus;
import io.loopbench.events.EventStreams;
import io.loopbench.events.EventStreamsProperties;

import java.util.Optional;
import java.util.function.Function;

/**
 * Server-Sent Events of runs (see {@link EventStreams}); a running run's progress carries its live timeline's
 * progress.
 */
public class RunEvents extends EventStreams<RunRecord> implements RunListener {

    /** @param lookup the stored run of an id ({@link RunStore#find}) */
    public RunEvents(EventStreamsProperties settings, Slots slots, Function<String, Optional<RunRecord>> lookup,
                     LiveTimelines live) {
        super(RunRecord::id, r -> r.status().isFinished(), r -> r.status() == RunStatus.RUNNING,
                (r, now) -> live.onto(r.asOf(now)), lookup, settings, slots);
    }
}
