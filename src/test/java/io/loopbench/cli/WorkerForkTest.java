package io.loopbench.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line's workers start as the service's do: with its flags, not with its own class archive. */
class WorkerForkTest {

    @Test
    void aWorkerKeepsTheCommandLinesFlagsButNotItsClassArchiveNorWhatTheLauncherAddsItself() {
        List<String> cli = List.of("-Xms32m", "-Xmx640m", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED",
                "-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=/x/loopbench-cli.jsa", "-Xlog:cds=off",
                "-XX:AOTCache=/x/loopbench-cli.aot", "-Xlog:disable", "-Xlog:all=warning:stderr",
                "-Djdk.virtualThreadScheduler.parallelism=2", "-Dloopbench.worker.aot-directory=/x/worker-aot",
                "-Dmy.own=1");

        assertThat(WorkerFork.workerOptions(cli)).containsExactly("-Xms32m", "-Xmx640m", "-XX:+UseSerialGC",
                "-Dmy.own=1");
    }
}
