package io.loopbench.recommendations;

import io.loopbench.events.EventStreams;
import io.loopbench.events.EventStreamsProperties;
import io.loopbench.jobs.JobQueue;
import io.loopbench.runs.Isolation;
import io.loopbench.runs.RunService;
import io.loopbench.runs.RunsProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;
import tools.jackson.databind.ObjectMapper;

/** Wires the recommendation feature: its store (under the data directory), events and service (forked workers). */
@Configuration(proxyBeanMethods = false)
class RecommendationsConfiguration {

    @Bean
    @DependsOn("dataDirectoryLock")
    RecommendationStore recommendationStore(RunsProperties properties, ObjectMapper json) {
        return new RecommendationStore(properties.dataDirectory().resolve("recommendations"), json);
    }

    @Bean(destroyMethod = "close")
    RecommendationEvents recommendationEvents(EventStreamsProperties settings, EventStreams.Slots slots,
                                              RecommendationStore store) {
        return new RecommendationEvents(settings, slots, store::find);
    }

    @Bean
    RecommendationService recommendationService(RecommendationStore store, RunService runs,
                                                RunsProperties properties, JobQueue jobs,
                                                RecommendationEvents events) {
        return new RecommendationService(store, runs, properties, jobs, events, Isolation.FORKED);
    }
}
