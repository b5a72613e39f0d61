package io.loopbench.cluster;

import io.loopbench.SystemTest;
import io.loopbench.engine.EngineTestSupport;
import io.loopbench.engine.Fairness;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.TlsEchoTest;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.protocol.tls.TlsMaterial;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.timeline.TimelineInterval;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.loopbench.cluster.ClusterTestSupport.SECRET;
import static io.loopbench.cluster.ClusterTestSupport.agentSettings;
import static io.loopbench.cluster.ClusterTestSupport.await;
import static io.loopbench.cluster.ClusterTestSupport.coordinatorSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

/**
 * A repetition across hosts, wired end to end with every member in this JVM on 127.0.0.1 (each agent's engine
 * in-process): the echo server on one agent, clients on it and on another, merged exactly with the start skew
 * reported, for TCP and UDP, each agent's row with its process's CPU and peak RSS, the server's agent's alone too; a
 * cancelled repetition stops the agents' load, in its measured phase or while they warm up; a client agent lost
 * mid-repetition fails it, named, the others stop and the next run goes on without it; agents that lose their
 * coordinator stop their load by themselves.
 */
@SystemTest
class DistributedRunTest {

    private static RunSpec.Builder quick(Protocol protocol, double seconds) {
        return RunSpec.builder().protocol(protocol).window(4).ioThreads(1).payloadBytes(256).warmupSeconds(0.2)
                .warmupMode(WarmupMode.FIXED).seconds(seconds).repetitions(1).lossTimeoutMillis(5000);
    }

    private static Placement placement(String server, String... clientAgents) {
        return new Placement(server, java.util.Arrays.stream(clientAgents)
                .map(a -> new Placement.ClientShare(a, 2)).toList());
    }

    @Test
    void tcpAndUdpPlacedOnTwoAgentsValidateAndMergeExactlyAndACancelStopsTheLoad() throws Exception {
        try (Coordinator coordinator = Coordinator.join(coordinatorSettings("distributed-run", false), "coordinator");
             Agent a = Agent.join(agentSettings(coordinator, SECRET, false), "agent-a", () -> { });
             Agent b = Agent.join(agentSettings(coordinator, SECRET, false), "agent-b", () -> { })) {
            await(Duration.ofSeconds(60), "two idle agents", () -> coordinator.agents().size() == 2
                    && coordinator.agents().stream().allMatch(k -> k.state() == AgentState.IDLE));
            for (Protocol protocol : List.of(Protocol.TCP, Protocol.UDP)) {
                List<TimelineInterval> live = new java.util.concurrent.CopyOnWriteArrayList<>();
                DistributedRepetition rep = DistributedRun.repetition(coordinator,
                        placement("agent-a", "agent-a", "agent-b"), quick(protocol, 0.6).build(), 1,
                        new RunControl(), live::add);
                RepetitionResult r = rep.result();
                assertThat(r.ok()).as(protocol + ": " + r.error()).isTrue();
                assertThat(r.setup().remote()).isTrue();
                assertThat(r.setup().serverAddress()).startsWith("127.0.0.1:");
                assertThat(rep.agents()).extracting(AgentShare::member).containsExactly("agent-a", "agent-b");
                assertThat(rep.agents()).extracting(AgentShare::server).containsExactly(true, false);
                assertThat(rep.agents()).extracting(AgentShare::clients).containsExactly(2, 2);
                assertThat(rep.agents()).allSatisfy(s -> assertThat(s.messages()).isPositive());
                assertProcessFigures(rep);
                long sum = rep.agents().stream().mapToLong(AgentShare::messages).sum();
                assertThat(r.throughput().messages()).as(protocol + ": merged = sum of the agents'").isEqualTo(sum);
                // every validated echo's RTT is in the merged histogram, once
                assertThat(LatencyHistograms.decode(r.rtt().latencyHistogram()).getTotalCount()).isEqualTo(sum);
                assertThat(r.throughput().roundTripsPerSecond()).isCloseTo(rep.agents().stream()
                        .mapToDouble(AgentShare::roundTripsPerSecond).sum(), org.assertj.core.data.Offset.offset(1e-6));
                ClusterTestSupport.assertStartTold(rep.start(), r, 0.6, "agent-a", "agent-b");
                ClusterTestSupport.assertMergedTimeline(r, 0.6);
                // the stamp gap of the agent whose gap was the largest share of its RTT, every message measured
                assertThat(r.checks().stampGap()).isNotNull();
                assertThat(r.checks().stampGap().messages()).isPositive()
                        .isLessThanOrEqualTo(r.throughput().messagesSent());
                // live, while it ran: the same intervals, merged from what the agents sent as each closed
                assertThat(live).extracting(TimelineInterval::roundTrips).containsExactlyElementsOf(
                        r.timeline().roundTrips());
                assertThat(live).extracting(TimelineInterval::p99Us).containsExactlyElementsOf(r.timeline().p99Us());
                assertThat(live).extracting(TimelineInterval::startSeconds)
                        .containsExactlyElementsOf(r.timeline().startSeconds());
                // the repetition's end stopped the server and the clients on both agents
                await(Duration.ofSeconds(30), "agents idle again",
                        () -> a.state() == AgentState.IDLE && b.state() == AgentState.IDLE);
            }

            // the server's agent alone, without clients: a row with its process's figures over the same phase
            DistributedRepetition serverApart = DistributedRun.repetition(coordinator, placement("agent-a", "agent-b"),
                    quick(Protocol.TCP, 0.6).build(), 1);
            assertThat(serverApart.result().ok()).as(serverApart.result().error()).isTrue();
            assertThat(serverApart.agents()).extracting(AgentShare::member, AgentShare::server, AgentShare::clients)
                    .containsExactly(tuple("agent-a", true, 0), tuple("agent-b", false, 2));
            AgentShare server = serverApart.agents().getFirst();
            assertThat(server.messages()).isNull();
            assertThat(server.roundTripsPerSecond()).isNull();
            assertThat(server.startLateNanos()).as("the skew is the client agents'").isNull();
            assertThat(serverApart.start().starts()).extracting(AgentStart::member).containsExactly("agent-b");
            assertThat(serverApart.result().throughput().messages()).isEqualTo(serverApart.agents().get(1).messages());
            assertProcessFigures(serverApart);
            await(Duration.ofSeconds(30), "agents idle again",
                    () -> a.state() == AgentState.IDLE && b.state() == AgentState.IDLE);

            // cancelled in its measured phase: the repetition ends at once and the agents' load with it
            RunControl control = new RunControl();
            CompletableFuture<DistributedRepetition> running = CompletableFuture.supplyAsync(() ->
                    DistributedRun.repetition(coordinator, placement("agent-a", "agent-a", "agent-b"),
                            quick(Protocol.TCP, 20).build(), 1, control), r -> Thread.ofPlatform().start(r));
            await(Duration.ofSeconds(60), "agent-b preparing", () -> b.state() == AgentState.BUSY);
            Thread.sleep(1_000);
            cancelWithin(control, running, Duration.ofSeconds(5));
            assertThat(a.state()).isEqualTo(AgentState.IDLE);
            assertThat(b.state()).isEqualTo(AgentState.IDLE);
        }
    }

    @Test
    void theTlsProtocolsRunAcrossHostsWithTheUsersCertificatesOnEveryAgent(@TempDir Path certs) throws Exception {
        TlsEchoTest.write(certs, TlsMaterial.generate(InetAddress.getByName("127.0.0.1")));
        try (Coordinator coordinator = Coordinator.join(coordinatorSettings("distributed-tls", false), "coordinator");
             Agent a = Agent.join(agentSettings(coordinator, SECRET, false), "agent-a", () -> { });
             Agent b = Agent.join(agentSettings(coordinator, SECRET, false), "agent-b", () -> { })) {
            await(Duration.ofSeconds(60), "two idle agents", () -> coordinator.agents().size() == 2
                    && coordinator.agents().stream().allMatch(k -> k.state() == AgentState.IDLE));
            for (Protocol protocol : List.of(Protocol.TCPS, Protocol.WSS, Protocol.HTTPS)) {
                DistributedRepetition rep = DistributedRun.repetition(coordinator, placement("agent-a", "agent-b"),
                        quick(protocol, 0.6).window(protocol == Protocol.HTTPS ? 2 : 4)
                                .certsDirectory(certs.toString()).build(), 1);
                RepetitionResult r = rep.result();
                // a stall on a busy machine may be judged unfair, truly; every echo is still validated and merged
                EngineTestSupport.assertValidatedByEveryClient(r, 2);
                assertThat(r.throughput().messages()).isPositive().isEqualTo(rep.agents().get(1).messages());
                assertThat(r.setup().tls()).as(protocol + ": the handshake's session").isNotNull();
                assertThat(r.setup().tls().protocol()).startsWith("TLSv1.");
                await(Duration.ofSeconds(30), "agents idle again",
                        () -> a.state() == AgentState.IDLE && b.state() == AgentState.IDLE);
            }
        }
    }

    /** Every agent's row has its process's CPU and peak RSS (where Linux has /proc), and the merged CPU is known. */
    private static void assertProcessFigures(DistributedRepetition rep) {
        assertThat(rep.agents()).allSatisfy(s -> {
            assertThat(s.cpuPercent()).as(s.member() + "'s CPU").isPositive();
            if (Files.exists(Path.of("/proc/self/status"))) {
                assertThat(s.peakRssBytes()).as(s.member() + "'s peak RSS").isPositive();
            }
        });
        assertThat(rep.result().resources().cpu()).isNotNull();
        assertThat(rep.result().resources().cpu().percent()).isPositive();
        // what says whether the figures can be trusted is merged too: fairness over every client, every JVM's JIT
        int clients = rep.agents().stream().mapToInt(AgentShare::clients).sum();
        assertThat(rep.result().checks().fairness().clients()).isEqualTo(clients);
        // Jain's index (Σx)² / (n·Σx²) over every client, as merged: the Σx² it implies lies between what the agents'
        // own totals force (each agent's clients equal: Σ messages² / clients) and n × the largest client's square
        Fairness f = rep.result().checks().fairness();
        double total = rep.result().throughput().messages();
        double squares = total * total / (clients * f.jainIndex());
        double leastSquares = rep.agents().stream().filter(s -> s.clients() > 0)
                .mapToDouble(s -> (double) s.messages() * s.messages() / s.clients()).sum();
        assertThat(f.minMessages()).isPositive().isLessThanOrEqualTo((long) Math.floor(total / clients));
        assertThat(f.maxMessages()).isGreaterThanOrEqualTo((long) Math.ceil(total / clients));
        assertThat(squares).isGreaterThanOrEqualTo(leastSquares * (1 - 1e-9))
                .isLessThanOrEqualTo(clients * (double) f.maxMessages() * f.maxMessages() * (1 + 1e-9));
        assertThat(rep.result().jvm().jit()).isNotNull();
        assertThat(rep.result().jvm().jit().quiet()).isEqualTo(rep.result().checks().warnings().stream()
                .noneMatch(w -> w.contains("not JIT-quiet")));
    }

    @Test
    void aCancelWhileTheAgentsWarmUpEndsTheRepetitionAtOnceAndStopsTheirWarmUp() throws Exception {
        try (Coordinator coordinator = Coordinator.join(coordinatorSettings("distributed-cancel-warmup", false),
                "coordinator");
             Agent a = Agent.join(agentSettings(coordinator, SECRET, false), "agent-a", () -> { });
             Agent b = Agent.join(agentSettings(coordinator, SECRET, false), "agent-b", () -> { })) {
            await(Duration.ofSeconds(60), "two idle agents", () -> coordinator.agents().size() == 2
                    && coordinator.agents().stream().allMatch(k -> k.state() == AgentState.IDLE));
            Set<Thread> before = AgentWorkTest.loopbenchThreads();
            RunControl control = new RunControl();
            // a 30 s warm-up: the coordinator would wait for it without looking at the cancellation
            CompletableFuture<DistributedRepetition> running = CompletableFuture.supplyAsync(() ->
                    DistributedRun.repetition(coordinator, placement("agent-a", "agent-a", "agent-b"),
                            quick(Protocol.TCP, 1).warmupSeconds(30.0).build(), 1, control),
                    r -> Thread.ofPlatform().start(r));
            await(Duration.ofSeconds(60), "both agents preparing",
                    () -> a.state() == AgentState.BUSY && b.state() == AgentState.BUSY);
            Thread.sleep(1_500); // connected and well into the warm-up
            assertThat(running).isNotDone();
            // the repetition returns once the agents confirmed the end: their warm-up stopped, clients closed
            DistributedRepetition stopped = cancelWithin(control, running, Duration.ofSeconds(2));
            assertThat(stopped.agents()).isEmpty();
            assertThat(a.state()).isEqualTo(AgentState.IDLE);
            assertThat(b.state()).isEqualTo(AgentState.IDLE);
            assertThat(a.working()).as("agent-a's server and clients stopped").isFalse();
            assertThat(b.working()).as("agent-b's clients stopped").isFalse();
            await(Duration.ofSeconds(30), "no client, server or prepare thread left: "
                    + AgentWorkTest.loopbenchThreads(), () -> before.containsAll(AgentWorkTest.loopbenchThreads()));

            // and the agents take the next repetition
            DistributedRepetition next = DistributedRun.repetition(coordinator, placement("agent-a", "agent-b"),
                    quick(Protocol.TCP, 0.4).build(), 2);
            assertThat(next.result().ok()).as(next.result().error()).isTrue();
        }
    }

    @Test
    void aClientAgentLostMidRepetitionFailsItNamedAndTheNextRunGoesOnWithoutIt() throws Exception {
        try (Coordinator coordinator = Coordinator.join(coordinatorSettings("distributed-loss", false), "coordinator");
             Agent a = Agent.join(agentSettings(coordinator, SECRET, false), "agent-a", () -> { });
             Agent b = Agent.join(agentSettings(coordinator, SECRET, false), "agent-b", () -> { });
             Agent c = Agent.join(agentSettings(coordinator, SECRET, false), "agent-c", () -> { })) {
            await(Duration.ofSeconds(60), "three agents", () -> coordinator.agents().size() == 3);
            CompletableFuture<DistributedRepetition> running = CompletableFuture.supplyAsync(() ->
                    DistributedRun.repetition(coordinator, placement("agent-a", "agent-b", "agent-c"),
                            quick(Protocol.TCP, 2.5).build(), 1), r -> Thread.ofPlatform().start(r));
            await(Duration.ofSeconds(60), "agent-b preparing", () -> b.state() == AgentState.BUSY);
            // set-up, 0.2 s of warm-up, the clock probes and the 0.2 s lead take well under 1.5 s: mid-phase
            Thread.sleep(1_500);
            ClusterTestSupport.kill(b);

            DistributedRepetition failed = running.get(20, TimeUnit.SECONDS);
            assertThat(failed.result().ok()).isFalse();
            assertThat(failed.result().error())
                    .startsWith("agent agent-b failed sending its part: it was lost")
                    .contains("the start barrier released every client agent");
            // no load moved: the other agents were told to stop theirs
            await(Duration.ofSeconds(30), "agent-a and agent-c stopped",
                    () -> a.state() == AgentState.IDLE && c.state() == AgentState.IDLE);
            await(Duration.ofSeconds(30), "agent-b gone", () -> coordinator.agents().size() == 2);

            DistributedRepetition next = DistributedRun.repetition(coordinator, placement("agent-a", "agent-c"),
                    quick(Protocol.TCP, 0.4).build(), 2);
            assertThat(next.result().ok()).as(next.result().error()).isTrue();
            assertThat(next.agents()).extracting(AgentShare::member).containsExactly("agent-a", "agent-c");
        }
    }

    @Test
    void agentsThatLoseTheirCoordinatorStopTheirLoadWithinSeconds() throws Exception {
        Coordinator coordinator = Coordinator.join(coordinatorSettings("distributed-orphans", false), "coordinator");
        RunControl control = new RunControl();
        CompletableFuture<DistributedRepetition> running = null;
        try (Agent a = Agent.join(agentSettings(coordinator, SECRET, false), "agent-a", () -> { });
             Agent b = Agent.join(agentSettings(coordinator, SECRET, false), "agent-b", () -> { })) {
            await(Duration.ofSeconds(60), "two agents", () -> coordinator.agents().size() == 2);
            running = CompletableFuture.supplyAsync(() -> DistributedRun.repetition(coordinator,
                    placement("agent-a", "agent-b"), quick(Protocol.TCP, 60).build(), 1, control),
                    r -> Thread.ofPlatform().start(r));
            await(Duration.ofSeconds(60), "agent-b preparing", () -> b.state() == AgentState.BUSY);
            Thread.sleep(1_000);
            ClusterTestSupport.kill(coordinator);
            Duration stopped = await(Duration.ofSeconds(60), "both agents stopped their load",
                    () -> a.state() == AgentState.IDLE && b.state() == AgentState.IDLE);
            // stopped by the loss, well before the 60 s phase would have ended
            assertThat(stopped).isLessThan(Duration.ofSeconds(30));
        } finally {
            // the killed coordinator's repetition would wait out its phase, then for the agents' answers: cancelled
            // and closed, it ends at once
            control.cancel();
            coordinator.close();
            if (running != null) {
                assertThat(running.get(20, TimeUnit.SECONDS).result().ok()).isFalse();
            }
        }
    }

    /** Cancels the running repetition: it returns within {@code limit}, failed as cancelled. */
    private static DistributedRepetition cancelWithin(RunControl control,
                                                      CompletableFuture<DistributedRepetition> running,
                                                      Duration limit) throws Exception {
        long cancelled = System.nanoTime();
        control.cancel();
        DistributedRepetition stopped = running.get(10, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - cancelled)).isLessThan(limit);
        assertThat(stopped.result().ok()).isFalse();
        assertThat(stopped.result().error()).isEqualTo("cancelled");
        return stopped;
    }
}
