package io.loopbench.runs;

import io.loopbench.engine.Execution;
import io.loopbench.engine.RunSpec;
import io.loopbench.engine.Transport;
import io.loopbench.engine.WarmupMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ForkedWorkerTest {

    @ParameterizedTest(name = "ioThreads {0}")
    @ValueSource(ints = {1, 3})
    void aVirtualThreadsWorkerHasExactlyIoThreadsCarriers(int ioThreads) {
        ForkedWorker worker = new ForkedWorker(RunStoreTest.JSON, List.of(), 30);
        // window 1, so that no end monopolises a carrier (see EngineTestSupport.quick(Execution))
        RunSpec spec = RunSpec.builder().execution(Execution.VIRTUAL_THREADS).ioThreads(ioThreads).clients(6)
                .window(1).warmupSeconds(0.1).warmupMode(WarmupMode.FIXED).seconds(0.6).repetitions(1).build();

        ForkedWorker.Outcome o = worker.run(spec, 1, Transport.JDK, line -> { }, () -> false);

        // every echo validated; with 3 carriers on a busy 2-core machine a hiccup may fail it as unfair, which is
        // not this test's subject
        assertThat(o.repetition().errors()).as(o.repetition().error()).isNotNull();
        assertThat(o.repetition().errors().total()).isZero();
        assertThat(o.repetition().ok() || o.repetition().error().startsWith("unfair: ")).as(o.repetition().error())
                .isTrue();
        assertThat(o.repetition().transport()).isEqualTo(Transport.JDK);
        assertThat(o.repetition().eventLoops()).isEqualTo(ioThreads);
    }

    @Test
    void aWorkerPastItsTimeLimitIsKilledAndItsRepetitionFailsWithTheReasonAndItsStderr() {
        // The JVM waits for a debugger forever: a worker that hangs, deterministically.
        ForkedWorker worker = new ForkedWorker(RunStoreTest.JSON,
                List.of("-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0"), 1);
        RunSpec spec = RunSpec.builder().warmupSeconds(0.0).seconds(0.5).repetitions(1).build();
        long started = System.nanoTime();

        ForkedWorker.Outcome o = worker.run(spec, 3, Transport.NIO, line -> { }, () -> false);

        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(o.repetition().ok()).isFalse();
        assertThat(o.repetition().repetition()).isEqualTo(3);
        assertThat(o.repetition().error()).contains("ran past its limit of 1 s");
        assertThat(o.repetition().roundTripsPerSecond()).isNull();
        assertThat(o.stderr()).contains("Listening for transport dt_socket");
        assertThat(seconds).isBetween(1.4, 10.0);
        assertThat(ProcessHandle.current().descendants().count()).isZero();
    }
}
