package io.loopbench.runs;

import io.loopbench.SystemTest;
import io.loopbench.cluster.Agent;
import io.loopbench.cluster.AgentShare;
import io.loopbench.cluster.AgentState;
import io.loopbench.cluster.ClusterTestSupport;
import io.loopbench.cluster.Coordinator;
import io.loopbench.cluster.Placement;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Violation;
import io.loopbench.jobs.JobQueue;
import io.loopbench.jobs.RunStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.loopbench.cluster.ClusterTestSupport.SECRET;
import static io.loopbench.cluster.ClusterTestSupport.agentSettings;
import static io.loopbench.cluster.ClusterTestSupport.coordinatorSettings;
import static io.loopbench.runs.RunStoreTest.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

/**
 * A run request's placement: refused, naming the field, without clustering, with a target, with an unknown agent
 * or an agent outside the allow-list; accepted on known idle agents, it runs across them and stores the merged
 * repetitions with what each agent did.
 */
@SystemTest
class PlacedRunTest {

    @TempDir
    Path dir;

    private static final Placement ON_A_AND_B = new Placement("agent-a",
            List.of(new Placement.ClientShare("agent-a", 1), new Placement.ClientShare("agent-b", 2)));

    private final LiveTimelines live = new LiveTimelines();

    private RunService service(JobQueue jobs, Coordinator cluster, RunPolicy.Resolver resolver) {
        RunService s = new RunService(new RunStore(dir, JSON), RunServiceTest.properties(dir, 10), JSON, List.of(),
                jobs, resolver, live, cluster);
        s.start();
        return s;
    }

    @Test
    void aPlacementIsRefusedWithoutClusteringAndRunsAcrossKnownIdleAgentsAtAllowedAddresses() throws Exception {
        JobQueue jobs = new JobQueue(10);
        jobs.start();
        RunService off = service(jobs, null, InetAddress::getAllByName);
        try {
            assertThatThrownBy(() -> off.submit(RunServiceTest.quick().build(), Isolation.IN_PROCESS, ON_A_AND_B))
                    .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.violations())
                            .extracting(Violation::field).containsExactly("placement"));
        } finally {
            off.stop();
        }
        try (Coordinator coordinator = Coordinator.join(coordinatorSettings("placed-run", false), "coordinator");
             Agent a = Agent.join(agentSettings(coordinator, SECRET, false), "agent-a", () -> { });
             Agent b = Agent.join(agentSettings(coordinator, SECRET, false), "agent-b", () -> { })) {
            ClusterTestSupport.await(Duration.ofSeconds(60), "two idle agents", () -> coordinator.agents().size() == 2
                    && coordinator.agents().stream().allMatch(k -> k.state() == AgentState.IDLE));
            RunService s = service(jobs, coordinator, InetAddress::getAllByName);
            try {
                Placement unknown = new Placement("agent-x", List.of(new Placement.ClientShare("agent-b", 1)));
                assertThatThrownBy(() -> s.submit(RunServiceTest.quick().target("127.0.0.1:7").build(),
                        Isolation.IN_PROCESS, unknown)).isInstanceOfSatisfying(InvalidSpecException.class,
                        e -> assertThat(e.violations()).extracting(Violation::field, Violation::allowed)
                                .containsExactly(tuple("target", "none with a placement: the placement's server "
                                                + "agent is the target"),
                                        tuple("placement.server", "an agent in the cluster: agent-a, agent-b")));

                assertThatThrownBy(() -> s.submit(RunServiceTest.quick()
                        .protocol(io.loopbench.engine.spec.Protocol.TCPS).build(), Isolation.FORKED, ON_A_AND_B))
                        .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.violations())
                                .extracting(Violation::field).containsExactly("certsDirectory"));

                String id = s.submit(RunServiceTest.quick().seconds(0.8).repetitions(2).build(), Isolation.FORKED,
                        ON_A_AND_B).id();
                // the live timeline while it runs: each repetition's merged intervals, growing
                java.util.Map<Integer, Integer> liveIntervals = new java.util.TreeMap<>();
                RunRecord done = RunServiceTest.await(s, id, r -> {
                    live.intervals(id).ifPresent(e -> liveIntervals.merge(e.getKey(), e.getValue().size(), Math::max));
                    return r.status().isFinished();
                }, Duration.ofSeconds(30));
                assertThat(liveIntervals).as("intervals seen live, by repetition").isNotEmpty()
                        .allSatisfy((repetition, n) -> assertThat(n).isBetween(1, 8));
                assertThat(done.status()).as(done.error()).isEqualTo(RunStatus.SUCCEEDED);
                assertThat(done.spec().clients()).as("the placement's sum").isEqualTo(3);
                assertThat(done.summary()).isNotNull();
                assertThat(done.repetitions()).hasSize(2).allSatisfy(r -> assertThat(r.setup().remote()).isTrue());
                assertThat(done.acrossHosts()).extracting(HostsRepetition::repetition).containsExactly(1, 2);
                for (int i = 0; i < 2; i++) {
                    RepetitionResult merged = done.repetitions().get(i);
                    HostsRepetition hosts = done.acrossHosts().get(i);
                    assertThat(hosts.agents()).extracting(AgentShare::member, AgentShare::clients)
                            .containsExactly(tuple("agent-a", 1), tuple("agent-b", 2));
                    assertThat(merged.throughput().messages()).isEqualTo(hosts.agents().stream()
                            .mapToLong(AgentShare::messages).sum());
                    assertThat(hosts.agents()).allSatisfy(row -> assertThat(row.cpuPercent()).isPositive());
                    ClusterTestSupport.assertStartTold(hosts.start(), merged, done.spec().seconds(),
                            "agent-a", "agent-b");
                    ClusterTestSupport.assertMergedTimeline(merged, done.spec().seconds());
                }
                // stored as returned
                assertThat(new RunStore(dir, JSON).find(done.id()).orElseThrow().acrossHosts())
                        .isEqualTo(done.acrossHosts());
            } finally {
                s.stop();
            }

            // as if the agents' addresses were another host's: 198.51.100.7 is outside the allow-list (192.0.2.0/24)
            RunService refusing = service(jobs, coordinator,
                    host -> new InetAddress[]{InetAddress.getByName("198.51.100.7")});
            try {
                int stored = refusing.store().all().size();
                assertThatThrownBy(() -> refusing.submit(RunServiceTest.quick().build(), Isolation.FORKED,
                        ON_A_AND_B)).isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(
                        e.violations()).extracting(Violation::field, Violation::value).containsExactly(
                        tuple("placement.server", "agent-a"), tuple("placement.clients", "agent-b")));
                assertThat(refusing.store().all()).hasSize(stored);
            } finally {
                refusing.stop();
            }
        } finally {
            jobs.stop();
        }
    }
}
