package io.loopbench.cli;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.race.RecommendationSpec;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code recommend}: its flags reach the spec, what cannot be raced is refused naming the flag before any JVM starts,
 * and a repetition runs in a fresh worker JVM, its result read back.
 */
class RecommendCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return LoopbenchCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void theLoadAndTheCandidateListsReachTheSpec() {
        RecommendCommand command = new RecommendCommand();
        CommandLine cli = new CommandLine(command);
        LoopbenchCli.registerLabels(cli);
        cli.parseArgs("--protocol", "http", "--payload", "512", "--budget", "600", "--p99-bound-us", "2000",
                "--io-models", "shared,sharded", "--io-threads", "1,2", "--transports", "epoll,nio",
                "--executions", "netty,reactive", "--alpha", "0.01");

        RecommendationSpec spec = command.recommendation();

        assertThat(spec.load().protocol()).isEqualTo(Protocol.HTTP);
        assertThat(spec.load().payloadBytes()).isEqualTo(512);
        assertThat(spec.budgetSeconds()).isEqualTo(600);
        assertThat(spec.p99BoundUs()).isEqualTo(2000);
        assertThat(spec.alpha()).isEqualTo(0.01);
        assertThat(spec.ioModels()).containsExactly(IoModel.SHARED, IoModel.SHARDED);
        assertThat(spec.ioThreads()).containsExactly(1, 2);
        assertThat(spec.transports()).containsExactly(Transport.EPOLL, Transport.NIO);
        // the layout is the race's: measure's --io-model and --execution are not recommend's flags
        assertThat(cli.getCommandSpec().findOption("--io-model")).isNull();
        assertThat(cli.getCommandSpec().findOption("--execution")).isNull();
    }

    @Test
    void aBudgetThatCannotDecideIsRefusedNamingTheFlagAndTheLeastThatCan() {
        int code = run("recommend", "--budget", "10", "--io-models", "shared", "--io-threads", "1,2",
                "--transports", "nio", "--payload", "3");

        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).contains("loopbench: --payload: payloadBytes = 3 is out of range")
                .doesNotContain("racing");

        err.getBuffer().setLength(0);
        assertThat(run("recommend", "--budget", "10", "--io-models", "shared", "--io-threads", "1,2",
                "--transports", "nio")).isEqualTo(2);
        assertThat(err.toString()).contains("loopbench: --budget: budgetSeconds = 10 is out of range: allowed at "
                + "least 27 for these 2 candidates: a decision needs 2 rounds");

        err.getBuffer().setLength(0);
        assertThat(run("recommend", "--budget", "600", "--io-models", "shared", "--io-threads", "2",
                "--transports", "nio")).isEqualTo(2);
        assertThat(err.toString()).contains("loopbench: --io-models / --io-threads / --transports / --executions / --offloads: "
                + "candidates = shared 2 · nio · netty is out of range: allowed at least two ways");
    }

    @Test
    void aRepetitionRunsInAFreshWorkerJvmAndItsResultIsReadBack() {
        WorkerFork fork = new WorkerFork();
        RunSpec spec = RunSpec.builder().protocol(Protocol.TCP).payloadBytes(128).clients(2).window(2)
                .transport(Transport.NIO).seconds(0.5).warmupSeconds(0.1).warmupMode(WarmupMode.FIXED).build();

        RepetitionResult r = fork.run(spec, 4);

        assertThat(r.repetition()).isEqualTo(4);
        assertThat(r.setup().transport()).isEqualTo(Transport.NIO);
        // a worker that gave no result would fail as such; one that measured has counted its messages
        assertThat(String.valueOf(r.error())).doesNotContain("without a result", "could not start");
        assertThat(r.throughput().messages()).isPositive();
        assertThat(fork.lastEnvironment()).isNotNull();
        // the worker JVM was started with this JVM's own flags, but its virtual threads' carriers: the candidate's
        List<String> own = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(o -> !o.startsWith("-Djdk.virtualThreadScheduler.")).toList();
        assertThat(fork.lastEnvironment().jvmArguments()).containsAll(own)
                .noneMatch(o -> o.startsWith("-Djdk.virtualThreadScheduler."));
    }
}
