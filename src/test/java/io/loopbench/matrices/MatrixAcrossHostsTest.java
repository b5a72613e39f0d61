package io.loopbench.matrices;

import io.loopbench.SystemTest;
import io.loopbench.cluster.Agent;
import io.loopbench.cluster.AgentGroup;
import io.loopbench.cluster.AgentShare;
import io.loopbench.cluster.AgentState;
import io.loopbench.cluster.ClusterTestSupport;
import io.loopbench.cluster.Coordinator;
import io.loopbench.cluster.KnownAgent;
import io.loopbench.cluster.Placement;
import io.loopbench.engine.EngineTestSupport;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.events.EventStreams;
import io.loopbench.events.EventStreamsProperties;
import io.loopbench.jobs.JobQueue;
import io.loopbench.jobs.RunStatus;
import io.loopbench.runs.HostsRepetition;
import io.loopbench.runs.LiveTimelines;
import io.loopbench.runs.RunService;
import io.loopbench.runs.RunStore;
import io.loopbench.runs.RunsProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static io.loopbench.cluster.ClusterTestSupport.SECRET;
import static io.loopbench.cluster.ClusterTestSupport.agentSettings;
import static io.loopbench.cluster.ClusterTestSupport.coordinatorSettings;
import static io.loopbench.matrices.MatrixServiceTest.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

/**
 * A matrix across hosts: its agent groups are checked before anything runs (well formed, disjoint, known, idle,
 * allowed, of one hardware); its cases run on the groups at once, each group one case at a time, the cases that
 * differ only by execution on one group; each case records its placement, and each repetition what every agent did,
 * merged exactly; a cancellation stops every group's load.
 */
@SystemTest
class MatrixAcrossHostsTest {

    @TempDir
    Path dir;

    /**
     * TCP, 3 clients × window 2, shared 1 and 2 threads, netty and reactive: two blocks of two cases; keepGoing, so
     * that a repetition judged unfair (a stall on a busy machine) does not stop the other group.
     */
    private static MatrixSpec acrossHosts(List<AgentGroup> groups) {
        return new MatrixSpec(List.of(Protocol.TCP), List.of(128), List.of(new MatrixSpec.Profile(3, 2)),
                List.of(IoModel.SHARED), List.of(1, 2), null, null, null, List.of(Execution.NETTY, Execution.REACTIVE),
                1.5, 0.3, 1, true, null, null, null, WarmupMode.FIXED, null, null, null, null, groups, null, null, null, null, null, null);
    }

    private static final AgentGroup AB = new AgentGroup("agent-a", List.of("agent-a", "agent-b"));
    private static final AgentGroup CD = new AgentGroup("agent-c", List.of("agent-c", "agent-d"));

    @Test
    void theCasesRunOnTheGroupsAtOnceEachRecordingItsPlacementAndEveryAgentsPart() throws Exception {
        RunsProperties p = new RunsProperties(dir, 10, new RunsProperties.Limits(30, 5, 64, 120, 120),
                new RunsProperties.Worker(List.of("-Xmx256m"), 45, false), new RunsProperties.Network(List.of()));
        JobQueue jobs = new JobQueue(10);
        jobs.start();
        List<Agent> agents = new ArrayList<>();
        try (Coordinator coordinator = Coordinator.join(coordinatorSettings("matrix-hosts", false), "coordinator")) {
            for (String name : List.of("agent-a", "agent-b", "agent-c", "agent-d")) {
                agents.add(Agent.join(agentSettings(coordinator, SECRET, false), name, () -> { }));
            }
            ClusterTestSupport.await(Duration.ofSeconds(60), "four idle agents", () -> coordinator.agents().size() == 4
                    && coordinator.agents().stream().allMatch(k -> k.state() == AgentState.IDLE),
                    () -> ClusterTestSupport.seen(coordinator) + " agents' views " + agents.stream()
                            .map(a -> a.members().toString()).toList());
            RunService runs = new RunService(new RunStore(dir, JSON), p, JSON, List.of(), jobs,
                    InetAddress::getAllByName, new LiveTimelines(), coordinator);
            runs.start();
            MatrixEvents events = new MatrixEvents(EventStreamsProperties.defaults(), new EventStreams.Slots(256),
                    id -> Optional.empty());
            MatrixService matrices = new MatrixService(new MatrixStore(dir.resolve("matrices"), JSON), runs, p, jobs,
                    events);
            matrices.start();
            try {
                assertThatThrownBy(() -> matrices.submit(acrossHosts(List.of(AB,
                        new AgentGroup("agent-b", List.of("agent-x"))))))
                        .as("an agent in two groups; an unknown one is named once the groups are well formed")
                        .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.violations())
                                .extracting(Violation::field, Violation::value)
                                .containsExactly(tuple("agentGroups[1]", "agent-b")));
                assertThatThrownBy(() -> matrices.submit(acrossHosts(List.of(
                        new AgentGroup("agent-a", List.of("agent-x"))))))
                        .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.violations())
                                .extracting(Violation::field).containsExactly("agentGroups[0].clientAgents[0]"));
                assertThat(matrices.store().all()).as("a refused matrix changes nothing").isEmpty();

                // which agents are busy at once, sampled while the matrix runs
                AtomicBoolean bothGroupsBusy = new AtomicBoolean();
                Set<List<MatrixRecord.GroupStep>> progressSeen = new java.util.LinkedHashSet<>();
                MatrixRecord queued = matrices.submit(acrossHosts(List.of(AB, CD)));
                assertThat(queued.cases()).extracting(MatrixRecord.Case::agentGroup).containsExactly(0, 0, 1, 1);
                assertThat(queued.cases().getFirst().placement()).isEqualTo(new Placement("agent-a",
                        List.of(new Placement.ClientShare("agent-a", 2), new Placement.ClientShare("agent-b", 1))));
                MatrixRecord done = null;
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (System.nanoTime() < deadline) {
                    Set<String> busy = coordinator.agents().stream().filter(k -> k.state() == AgentState.BUSY)
                            .map(KnownAgent::member).collect(Collectors.toSet());
                    if (busy.contains("agent-a") && busy.contains("agent-c")) {
                        bothGroupsBusy.set(true);
                    }
                    MatrixRecord m = matrices.get(queued.id());
                    if (m.progress() != null && m.progress().groups() != null) {
                        progressSeen.add(m.progress().groups());
                    }
                    if (m.status().isFinished()) {
                        done = m;
                        break;
                    }
                    Thread.sleep(10);
                }
                assertThat(done).as("finished within 60 s").isNotNull();
                // on a busy 2-core machine, four agents and two groups at once: a stall may be judged unfair or
                // stalled, truly; every echo of every client is still validated, and a case has a summary exactly
                // when it passed
                assertThat(done.cases()).allSatisfy(c -> {
                    assertThat(c.error() == null || c.error().contains("unfair") || c.error().contains("stalled"))
                            .as(c.error()).isTrue();
                    assertThat(c.summary() != null).as(c.error()).isEqualTo(c.error() == null);
                    assertThat(c.repetitions()).isNotEmpty().allSatisfy(r ->
                            EngineTestSupport.assertValidatedByEveryClient(r, 3));
                });
                assertThat(bothGroupsBusy).as("both groups ran a case at the same moment").isTrue();
                // the progress names each group's step: cases 1 and 2 on group 0, 3 and 4 on group 1, both at once
                assertThat(progressSeen).allSatisfy(groups -> {
                    assertThat(groups).extracting(MatrixRecord.GroupStep::agentGroup).containsExactly(0, 1);
                    assertThat(groups.get(0).caseNumber()).isIn(null, 1, 2);
                    assertThat(groups.get(1).caseNumber()).isIn(null, 3, 4);
                    groups.forEach(g -> assertThat(g.repetition() == null).isEqualTo(g.caseNumber() == null));
                });
                assertThat(progressSeen).as(progressSeen.toString()).anySatisfy(groups -> assertThat(groups)
                        .allSatisfy(g -> assertThat(g.caseNumber()).isNotNull()));
                for (MatrixRecord.Case c : done.cases()) {
                    String server = c.agentGroup() == 0 ? "agent-a" : "agent-c";
                    String other = c.agentGroup() == 0 ? "agent-b" : "agent-d";
                    RepetitionResult merged = c.repetitions().getFirst();
                    assertThat(merged.setup().remote()).isTrue();
                    HostsRepetition hosts = c.acrossHosts().getFirst();
                    assertThat(hosts.agents()).extracting(AgentShare::member, AgentShare::server, AgentShare::clients)
                            .containsExactly(tuple(server, true, 2), tuple(other, false, 1));
                    assertThat(merged.throughput().messages()).isEqualTo(hosts.agents().stream()
                            .mapToLong(AgentShare::messages).sum());
                }
                assertThat(new MatrixStore(dir.resolve("matrices"), JSON).find(done.id())).contains(done);

                // cancelled while both groups measure: it ends, and every agent's load with it (how soon depends on
                // the machine: cancel answers within its own 5 s, with the record as it then stands)
                MatrixSpec longer = acrossHosts(List.of(AB, CD));
                MatrixRecord running = matrices.submit(new MatrixSpec(longer.protocols(), longer.payloads(),
                        longer.profiles(), longer.ioModels(), longer.ioThreads(), null, null, null,
                        longer.executions(), 20.0, 0.3, 1, true, null, null, null, WarmupMode.FIXED, null, null, null,
                        null, longer.agentGroups(), null, null, null, null, null, null));
                ClusterTestSupport.await(Duration.ofSeconds(60), "both groups busy", () -> coordinator.agents()
                        .stream().filter(k -> k.state() == AgentState.BUSY).count() == 4);
                assertThat(matrices.cancel(running.id()).status()).isIn(RunStatus.RUNNING, RunStatus.CANCELLED);
                ClusterTestSupport.await(Duration.ofSeconds(60), "the matrix cancelled",
                        () -> matrices.get(running.id()).status() == RunStatus.CANCELLED);
                ClusterTestSupport.await(Duration.ofSeconds(60), "every agent idle again", () -> coordinator.agents()
                        .stream().allMatch(k -> k.state() == AgentState.IDLE));
                assertThat(matrices.get(running.id()).cases()).allSatisfy(c -> assertThat(c.repetitions())
                        .as("an unfinished repetition is not kept").isEmpty());
            } finally {
                matrices.stop();
                runs.stop();
                events.close();
            }
        } finally {
            for (Agent a : agents) {
                a.close();
            }
            jobs.stop();
        }
    }

    @Test
    void groupsOfDifferentHardwareAreRefusedNamingTheOddAgent() {
        MatrixSpec spec = acrossHosts(List.of(AB, CD));
        Map<String, String> hardware = Map.of("agent-a", "EPYC × 2, 8 GiB", "agent-b", "EPYC × 2, 8 GiB",
                "agent-c", "EPYC × 4, 8 GiB", "agent-d", "EPYC × 2, 8 GiB");
        List<Violation> servers = new ArrayList<>();
        AgentGroupChecks.sameHardware(servers, spec, hardware, true);
        List<Violation> clients = new ArrayList<>();
        AgentGroupChecks.sameHardware(clients, spec, hardware, false);

        assertThat(servers).extracting(Violation::field, Violation::value)
                .containsExactly(tuple("agentGroups[1].server", "agent-c (EPYC × 4, 8 GiB)"));
        assertThat(clients).as("agent-c's clients, beside agent-a's").extracting(Violation::field)
                .containsExactly("agentGroups[1].clientAgents[0]");
    }
}
