package io.loopbench.matrices;

import io.loopbench.jobs.JobQueue;
import io.loopbench.runs.RunService;
import io.loopbench.runs.RunsProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.DependsOn;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.ObjectMapper;

/** Wires the matrix feature: its store (under the data directory), events and service. */
@Configuration(proxyBeanMethods = false)
class MatricesConfiguration {

    @Bean
    @DependsOn("dataDirectoryLock")
    MatrixStore matrixStore(RunsProperties properties, ObjectMapper json) {
        return new MatrixStore(properties.dataDirectory().resolve("matrices"), json);
    }

    @Bean(destroyMethod = "close")
    MatrixEvents matrixEvents() {
        return new MatrixEvents();
    }

    @Bean
    MatrixService matrixService(MatrixStore store, RunService runs, RunsProperties properties, JobQueue jobs,
                                MatrixEvents events) {
        return new MatrixService(store, runs, properties, jobs, events);
    }
}
