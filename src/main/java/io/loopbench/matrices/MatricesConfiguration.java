package io.loopbench.matrices;

import io.loopbench.jobs.JobQueue;
import io.loopbench.runs.RunService;
import io.loopbench.runs.RunsProperties;
import io.loopbench.events.EventStreams;
import io.loopbench.events.EventStreamsProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.DependsOn;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.ObjectMapper;

/** Wires the matrix feature: its store (under the data directory), events and service. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(EventStreamsProperties.class)
class MatricesConfiguration {

    @Bean
    @DependsOn("dataDirectoryLock")
    MatrixStore matrixStore(RunsProperties properties, ObjectMapper json) {
        return new MatrixStore(properties.dataDirectory().resolve("matrices"), json);
    }

    @Bean(destroyMethod = "close")
    MatrixEvents matrixEvents(EventStreamsProperties settings, EventStreams.Slots slots, MatrixStore store) {
        return new MatrixEvents(settings, slots, store::find);
    }

    @Bean
    MatrixService matrixService(MatrixStore store, RunService runs, RunsProperties properties, JobQueue jobs,
                                MatrixEvents events) {
        return new MatrixService(store, runs, properties, jobs, events);
    }
}
