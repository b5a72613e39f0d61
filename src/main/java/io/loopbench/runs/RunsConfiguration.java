package io.loopbench.runs;

import io.loopbench.agents.AgentDirectory;
import org.springframework.beans.factory.ObjectProvider;
import io.loopbench.jobs.JobQueue;
import io.loopbench.events.EventStreams;
import io.loopbench.events.EventStreamsProperties;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import io.loopbench.storage.DirectoryLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.DependsOn;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.ObjectMapper;

import java.net.InetAddress;
import java.util.List;

/** Wires the run feature: its store, SSE events, meters and the service that executes runs. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({RunsProperties.class, EventStreamsProperties.class})
class RunsConfiguration {

    /** Taken before any store reads the directory, released after the last one is done with it. */
    @Bean(destroyMethod = "close")
    DirectoryLock dataDirectoryLock(RunsProperties properties) {
        return DirectoryLock.take(properties.dataDirectory());
    }

    @Bean
    @DependsOn("dataDirectoryLock")
    RunStore runStore(RunsProperties properties, ObjectMapper json) {
        return new RunStore(properties.dataDirectory(), json);
    }

    /** The places of all open event streams, runs' and matrices' ({@code loopbench.events.max-subscribers}). */
    @Bean
    EventStreams.Slots eventStreamSlots(EventStreamsProperties settings) {
        return new EventStreams.Slots(settings.maxSubscribers());
    }

    @Bean
    LiveTimelines liveTimelines() {
        return new LiveTimelines();
    }

    @Bean(destroyMethod = "close")
    RunEvents runEvents(EventStreamsProperties settings, EventStreams.Slots slots, RunStore store,
                        LiveTimelines live) {
        return new RunEvents(settings, slots, store::find, live);
    }

    @Bean
    RunMetrics runMetrics(MeterRegistry registry, RunStore store) {
        return new RunMetrics(registry, store);
    }

    @Bean
    JobQueue jobQueue(RunsProperties properties) {
        return new JobQueue(properties.queueCapacity());
    }

    @Bean
    RunService runService(RunStore store, RunsProperties properties, ObjectMapper json, RunEvents events,
                          RunMetrics metrics, JobQueue jobs, LiveTimelines live,
                          ObjectProvider<AgentDirectory> agents) {
        AgentDirectory directory = agents.getIfAvailable();
        return new RunService(store, properties, json, List.of(events, metrics), jobs, InetAddress::getAllByName,
                live, directory == null ? null : directory.coordinator().orElse(null));
    }
}
