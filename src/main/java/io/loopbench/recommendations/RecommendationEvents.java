package io.loopbench.recommendations;

import io.loopbench.events.EventStreams;
import io.loopbench.events.EventStreamsProperties;
import io.loopbench.jobs.RunStatus;

import java.util.Optional;
import java.util.function.Function;

/**
 * Server-Sent Events of recommendations: progress (the repetition under way, the race as it stands) at least once a
 * second, then the outcome.
 */
public class RecommendationEvents extends EventStreams<RecommendationRecord> {

    /** @param lookup the stored recommendation of an id ({@link RecommendationStore#find}) */
    public RecommendationEvents(EventStreamsProperties settings, Slots slots,
                                Function<String, Optional<RecommendationRecord>> lookup) {
        super(RecommendationRecord::id, r -> r.status().isFinished(), r -> r.status() == RunStatus.RUNNING,
                RecommendationRecord::asOf, lookup, settings, slots);
    }
}
