package io.loopbench.runs;

import io.loopbench.engine.RunSpec;
import io.loopbench.engine.Transport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ForkedWorkerTest {

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
