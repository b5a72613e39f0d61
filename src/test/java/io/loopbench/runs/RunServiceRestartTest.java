package io.loopbench.runs;

import io.loopbench.jobs.RunStatus;
import io.loopbench.LoopbenchApplication;
import io.loopbench.engine.spec.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static io.loopbench.runs.RunServiceTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Stop the application mid-run and start it again on the same data directory. */
class RunServiceRestartTest {

    @TempDir
    Path dir;

    private ConfigurableApplicationContext startApplication() {
        // command-line arguments, so that they win over application.properties
        return new SpringApplicationBuilder(LoopbenchApplication.class)
                .run("--server.port=0", "--loopbench.data-directory=" + dir, "--spring.main.banner-mode=off");
    }

    @Test
    void theRunningRunReadsInterruptedTheQueuedOneRunsAndNoFileIsLostOrTorn() throws Exception {
        String longRun;
        String queuedRun;
        try (ConfigurableApplicationContext first = startApplication()) {
            RunService runs = first.getBean(RunService.class);
            RunSpec.Builder spec = RunServiceTest.quick();
            longRun = runs.submit(spec.warmupSeconds(0.0).seconds(30.0).build(), Isolation.IN_PROCESS).id();
            queuedRun = runs.submit(RunServiceTest.quick().build(), Isolation.IN_PROCESS).id();
            await(runs, longRun, r -> r.progress() != null && "measured".equals(r.progress().phase()),
                    Duration.ofSeconds(25));
        }
        List<RunRecord> onDisk = readAll();
        assertThat(onDisk).extracting(RunRecord::id).containsExactlyInAnyOrder(longRun, queuedRun);

        try (ConfigurableApplicationContext second = startApplication()) {
            RunService runs = second.getBean(RunService.class);
            RunRecord interrupted = runs.get(longRun);
            assertThat(interrupted.status()).isEqualTo(RunStatus.INTERRUPTED);
            assertThat(interrupted.error()).contains("the service stopped while this run was running");
            RunRecord ran = await(runs, queuedRun, r -> r.status().isFinished(), Duration.ofSeconds(30));
            RunServiceTest.assertMeasuredToTheEnd(ran, 2);
        }
        assertThat(readAll()).hasSize(2);
        try (Stream<Path> files = Files.list(dir)) {
            // no temporary file left behind: only run documents, the service's lock (and the matrices' folder)
            assertThat(files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
                    .allMatch(n -> n.endsWith(".json") || n.equals(".lock"));
        }
    }

    private List<RunRecord> readAll() throws Exception {
        RunStore store = new RunStore(dir, RunStoreTest.JSON);
        assertThat(store.corruptFiles()).isEmpty();
        return List.copyOf(store.all());
    }

    @Test
    void invalidSettingsStopTheServiceAtStartNamingTheProperty() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SpringApplicationBuilder(LoopbenchApplication.class)
                        .run("--server.port=0", "--loopbench.data-directory=" + dir, "--loopbench.queue-capacity=0",
                                "--loopbench.limits.max-clients=5000"))
                .hasStackTraceContaining("field 'queueCapacity': rejected value [0]")
                .hasStackTraceContaining("must be greater than or equal to 1")
                .hasStackTraceContaining("field 'limits.maxClients': rejected value [5000]");
    }
}
