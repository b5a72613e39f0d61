package io.loopbench.cluster;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import org.HdrHistogram.Histogram;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.RequestOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static io.loopbench.cluster.ClusterTestSupport.SECRET;
import static io.loopbench.cluster.ClusterTestSupport.agentSettings;
import static io.loopbench.cluster.ClusterTestSupport.await;
import static io.loopbench.cluster.ClusterTestSupport.coordinatorSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A repetition's primitives over the real cluster, three members in one JVM: each agent's clock set apart by a known
 * amount (so the offsets are not trivially 0), the start at one instant with its skew, the parts collected and merged,
 * a member other than the coordinator refused, and an agent lost before it sent its part named in the failure.
 */
class DistributedPrimitivesTest {

    private static final long AHEAD = 3_000_000_000L;
    private static final long BEHIND = -1_500_000_000L;

    @Test
    void offsetsStartSkewAndMergedPartsAcrossTwoAgents() throws Exception {
        try (Coordinator coordinator = Coordinator.join(coordinatorSettings("primitives", false), "coordinator");
             Agent ahead = Agent.join(agentSettings(coordinator, SECRET, false), "agent-ahead", () -> { },
                     () -> System.nanoTime() + AHEAD);
             Agent behind = Agent.join(agentSettings(coordinator, SECRET, false), "agent-behind", () -> { },
                     () -> System.nanoTime() + BEHIND)) {
            await(Duration.ofSeconds(60), "two agents", () -> coordinator.agents().size() == 2);
            Address a = coordinator.member("agent-ahead").orElseThrow();
            Address b = coordinator.member("agent-behind").orElseThrow();

            Map<Address, ClockOffset> offsets = coordinator.clockOffsets(List.of(a, b), 16);
            assertThat(offsets.get(a).probes()).isEqualTo(16);
            for (Map.Entry<Address, Long> truth : Map.of(a, AHEAD, b, BEHIND).entrySet()) {
                ClockOffset o = offsets.get(truth.getKey());
                assertThat(Math.abs(o.offsetNanos() - truth.getValue())).as(o.toString())
                        .isLessThanOrEqualTo(o.uncertaintyNanos());
                assertThat(o.uncertaintyNanos()).isLessThan(Duration.ofMillis(20).toNanos());
            }

            // The true start instants, on the one clock both agents share here.
            AtomicLong aStarted = new AtomicLong();
            AtomicLong bStarted = new AtomicLong();
            ahead.onStart(() -> aStarted.set(System.nanoTime()));
            behind.onStart(() -> bStarted.set(System.nanoTime()));
            long told = System.nanoTime();
            StartReport report = coordinator.startTogether(offsets, Duration.ofMillis(300));
            long answered = System.nanoTime();
            assertThat(report.starts()).extracting(AgentStart::member).containsExactly("agent-ahead", "agent-behind");
            // not before the lead's end, and (truly) before it answered; how late is the machine's, and reported
            long lead = Duration.ofMillis(300).toNanos();
            assertThat(aStarted.get() - told).isBetween(lead - offsets.get(a).uncertaintyNanos(), answered - told);
            long trueSkew = Math.abs(aStarted.get() - bStarted.get());
            assertThat(Math.abs(report.skewNanos() - trueSkew)).as(report.toString())
                    .isLessThanOrEqualTo(report.skewUncertaintyNanos() + Duration.ofMillis(5).toNanos());
            for (AgentStart s : report.starts()) {
                assertThat(s.lateNanos()).as(s.toString())
                        .isBetween(-s.offset().uncertaintyNanos(), answered - told - lead + s.offset()
                                .uncertaintyNanos());
                // told within the lead, on the agent's own clock: the offset placed the instant right there too
                assertThat(s.noticeNanos()).as(s.toString())
                        .isBetween(0L, Duration.ofMillis(300).toNanos() + s.offset().uncertaintyNanos());
            }

            Random random = new Random(7);
            Histogram union = LatencyHistograms.create();
            for (Agent agent : List.of(ahead, behind)) {
                Histogram h = LatencyHistograms.create();
                for (int i = 0; i < 5_000; i++) {
                    long rtt = 10_000 + random.nextInt(1_000_000);
                    LatencyHistograms.record(h, rtt);
                    LatencyHistograms.record(union, rtt);
                }
                String name = agent.name(agent.address());
                agent.partSource(() -> new AgentPart(name, 1, 1.0, MergedPartsTest.counts(5_000, null),
                        LatencyHistograms.encode(h), null, null, null, null, null, null, null, null, null, null, null, null, null, null));
            }
            MergedParts merged = coordinator.collect(List.of(a, b), LatencyMode.MESSAGE);
            assertThat(LatencyHistograms.decode(merged.latencyHistogram())).isEqualTo(union);
            assertThat(merged.counts().messages()).isEqualTo(10_000);
            assertThat(merged.parts()).extracting(AgentPart::member).containsExactly("agent-ahead", "agent-behind");

            // Another member, not the coordinator the agents answer to, cannot probe, start or collect them.
            JChannel stranger = ClusterStack.open(agentSettings(coordinator, SECRET, false), "stranger");
            try (MessageDispatcher d = new MessageDispatcher(stranger)) {
                stranger.connect(coordinator.clusterName());
                assertThatThrownBy(() -> d.sendMessage(new BytesMessage(a, Wire.request(Wire.Kind.PROBE, null)),
                        RequestOptions.SYNC().timeout(5_000)))
                        .hasMessageContaining("from its coordinator only, not from stranger");
            } finally {
                stranger.close();
            }

            behind.close();
            await(Duration.ofSeconds(30), "agent-behind gone", () -> coordinator.agents().size() == 1);
            assertThatThrownBy(() -> coordinator.collect(List.of(a, b), LatencyMode.MESSAGE))
                    .isInstanceOf(AgentFailure.class)
                    .hasMessageStartingWith("agent agent-behind failed sending its part: it was lost");
            ahead.partSource(null);
            assertThatThrownBy(() -> coordinator.collect(List.of(a), LatencyMode.MESSAGE))
                    .isInstanceOf(AgentFailure.class)
                    .hasMessageStartingWith("agent agent-ahead failed sending its part")
                    .hasMessageContaining("has no part");
        }
    }
}
