package io.loopbench.cluster;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.spec.WarmupMode;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An agent's share of a repetition without the cluster: a server and clients held after warm-up, released, their
 * part taken; clients still running are not replaced, finished ones whose end never came are; the end stops all.
 */
class AgentWorkTest {

    private static RunSpec.Builder quick() {
        return RunSpec.builder().protocol(Protocol.TCP).clients(2).window(2).ioThreads(1).payloadBytes(128)
                .warmupSeconds(0.2).warmupMode(WarmupMode.FIXED).seconds(0.8).repetitions(1);
    }

    @Test
    void serveHoldReleaseTakeThePartAndEnd() throws Exception {
        AgentWork work = new AgentWork("agent-x");
        try {
            assertThat(work.end()).isNull();
            Target server = work.serve(quick().build(), "127.0.0.1");
            assertThat(server.host()).isEqualTo("127.0.0.1");
            RunSpec clients = quick().target(server.toString()).build();
            work.prepare(clients);
            assertThat(work.busy()).isTrue();
            assertThatThrownBy(() -> work.prepare(clients)).hasMessage("agent agent-x already runs clients");
            assertThatThrownBy(() -> work.part(Duration.ofMillis(300))).as("held: no part until released")
                    .hasMessageContaining("did not finish within");
            work.release();
            AgentPart part = work.part(Duration.ofSeconds(10));
            assertThat(part.error()).isNull();
            assertThat(part.member()).isEqualTo("agent-x");
            assertThat(part.clients()).isEqualTo(2);
            assertThat(part.counts().messages()).isPositive();
            assertThat(LatencyHistograms.decode(part.latencyHistogram()).getTotalCount())
                    .isEqualTo(part.counts().messages());

            // finished clients whose end never came give way to the next ones, against the same server
            work.prepare(clients);
            assertThat(work.end()).isEqualTo("an echo server and 2 clients");
            assertThat(work.busy()).isFalse();
            assertThatThrownBy(work::release).hasMessageContaining("no clients waiting");
        } finally {
            work.end();
        }
    }
}
