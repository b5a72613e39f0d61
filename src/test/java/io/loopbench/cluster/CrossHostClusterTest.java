package io.loopbench.cluster;

import io.loopbench.SystemTest;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;
import org.jgroups.Address;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.loopbench.IpCommand.ip;
import static io.loopbench.IpCommand.removeLeftoversOfDeadTestJvms;
import static io.loopbench.cluster.ClusterTestSupport.SECRET;
import static io.loopbench.cluster.ClusterTestSupport.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Four hosts on one machine: three agents, each {@code ./loopbench agent} in a process of its own in a network
 * namespace of its own, and the coordinator (this JVM) in this one, all joined by veth links to a bridge here, with
 * addresses of the test's own making. TCP and UDP runs with the echo server on one agent and clients on the other
 * two pass validation and merge exactly, each agent's row with its own process's CPU and peak RSS; a client agent
 * killed (SIGKILL) mid-repetition fails that repetition naming it, the other client agent stops within 5 s, and the
 * next run succeeds without it. Needs root (namespaces and links); skipped otherwise.
 */
@SystemTest
class CrossHostClusterTest {

    private static final String TAG = "lbc" + ProcessHandle.current().pid() % 100_000;
    private static final String BRIDGE = TAG + "br";
    /** A /24 of the private range: this side .1, agent i's namespace .(2 + i). */
    private static final String NET = "10.231.79.";
    private static final List<String> AGENTS = List.of("agent-a", "agent-b", "agent-c");

    @TempDir
    static Path logs;

    private static final Map<String, Process> processes = new LinkedHashMap<>();
    private static Coordinator coordinator;

    private static String namespace(int i) {
        return "loopbench-cluster-" + ProcessHandle.current().pid() + "-" + i;
    }

    @BeforeAll
    static void hosts() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "skipped: network namespaces and veth links need root");
        try {
            ip("netns", "add", namespace(0));
        } catch (IOException e) {
            Assumptions.abort("skipped: this machine does not let the tests create a network namespace (" + e
                    .getMessage().strip() + ")");
        }
        removeLeftoversOfDeadTestJvms();
        ip("link", "add", BRIDGE, "type", "bridge");
        ip("addr", "add", NET + "1/24", "dev", BRIDGE);
        ip("link", "set", BRIDGE, "up");
        for (int i = 0; i < AGENTS.size(); i++) {
            if (i > 0) {
                ip("netns", "add", namespace(i));
            }
            String here = TAG + "h" + i;
            String there = TAG + "t" + i;
            ip("link", "add", here, "type", "veth", "peer", "name", there);
            ip("link", "set", here, "master", BRIDGE);
            ip("link", "set", here, "up");
            ip("link", "set", there, "netns", namespace(i));
            ip("-n", namespace(i), "addr", "add", NET + (2 + i) + "/24", "dev", there);
            ip("-n", namespace(i), "link", "set", there, "up");
            ip("-n", namespace(i), "link", "set", "lo", "up");
        }
        int port = ClusterTestSupport.freePort();
        coordinator = Coordinator.join(new ClusterSettings("cross-host-cluster", NET + "1", port, List.of(), null,
                SECRET, false), "coordinator");
        // One at a time: JVMs started together on a busy machine may miss the 2 s discovery and form clusters of
        // their own, whose later merge changes the view under the first runs.
        for (int i = 0; i < AGENTS.size(); i++) {
            processes.put(AGENTS.get(i), agent(i, port));
            long idle = i + 1;
            await(Duration.ofSeconds(60), idle + " idle agents in their namespaces", () -> coordinator.agents()
                    .stream().filter(a -> a.state() == AgentState.IDLE).count() == idle);
        }
        assertThat(coordinator.members()).hasSize(AGENTS.size() + 1);
    }

    private static Process agent(int i, int coordinatorPort) throws IOException {
        List<String> cmd = List.of("ip", "netns", "exec", namespace(i),
                ProcessHandle.current().info().command().orElseThrow(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), io.loopbench.cli.LoopbenchCli.class.getName(), "agent",
                "--cluster-name", "cross-host-cluster", "--bind-address", NET + (2 + i),
                "--hosts", NET + "1:" + coordinatorPort, "--member-name", AGENTS.get(i));
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(logs.resolve(AGENTS.get(i) + ".log").toFile());
        b.environment().put(ClusterSettings.environmentVariable("secret"), SECRET);
        return b.start();
    }

    @AfterAll
    static void teardown() throws Exception {
        if (!"root".equals(System.getProperty("user.name"))) {
            return;
        }
        for (Process p : processes.values()) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        if (coordinator != null) {
            coordinator.close();
        }
        for (int i = 0; i < AGENTS.size(); i++) {
            try {
                ip("netns", "del", namespace(i)); // takes its end of the veth pair, and so the pair, with it
            } catch (IOException e) {
                // never made
            }
        }
        try {
            ip("link", "del", BRIDGE);
        } catch (IOException e) {
            // never made
        }
    }

    private static String agentLogs() throws IOException {
        StringBuilder b = new StringBuilder();
        for (String a : AGENTS) {
            Path log = logs.resolve(a + ".log");
            b.append("\n--- ").append(a).append(":\n").append(Files.exists(log) ? Files.readString(log) : "");
        }
        return b.toString();
    }

    private static RunSpec spec(Protocol protocol, double seconds) {
        // fresh agent JVMs on a machine the test shares: a warm-up long enough to compile the paths, a phase long
        // enough that a scheduling stall is not a quarter of it
        return RunSpec.builder().protocol(protocol).window(4).ioThreads(1).payloadBytes(256).warmupSeconds(1.0)
                .warmupMode(WarmupMode.FIXED).seconds(seconds).repetitions(1).lossTimeoutMillis(5000).build();
    }

    private static Placement placement(String server, String... clientAgents) {
        return new Placement(server, Arrays.stream(clientAgents)
                .map(a -> new Placement.ClientShare(a, 2)).toList());
    }

    private static AgentState state(String agent) {
        return coordinator.agents().stream().filter(a -> a.member().equals(agent)).map(KnownAgent::state)
                .findFirst().orElse(null);
    }

    @Test
    void runsAcrossThreeNamespacesMergeExactlyAndAKilledClientAgentFailsOnlyItsRepetition() throws Exception {
        // The barrier across processes, apart from load: five starts of the idle agents. Their median, as one stall
        // of a process on this shared machine must not decide it; each start is late only by its own delivery.
        List<Address> idle = AGENTS.stream().map(a -> coordinator.member(a).orElseThrow()).toList();
        long[] skews = new long[5];
        for (int i = 0; i < skews.length; i++) {
            StartReport barrier = coordinator.startTogether(coordinator.clockOffsets(idle, 16), Duration.ofMillis(200));
            assertThat(barrier.starts()).extracting(AgentStart::member).containsExactlyElementsOf(AGENTS);
            // no order arrives before it was sent: at most the lead ahead, give or take the offset's uncertainty
            assertThat(barrier.starts()).allSatisfy(s -> assertThat(s.noticeNanos()).as(s.toString())
                    .isLessThanOrEqualTo(Duration.ofMillis(200).toNanos() + s.offset().uncertaintyNanos()));
            skews[i] = barrier.skewNanos();
        }
        Arrays.sort(skews);
        assertThat(skews[skews.length / 2]).as(Arrays.toString(skews))
                .isLessThan(Duration.ofMillis(10).toNanos());

        for (Protocol protocol : List.of(Protocol.TCP, Protocol.UDP)) {
            DistributedRepetition rep = DistributedRun.repetition(coordinator,
                    placement("agent-a", "agent-b", "agent-c"), spec(protocol, 2), 1);
            RepetitionResult r = rep.result();
            assertThat(r.ok()).as(protocol + ": " + r.error() + agentLogs()).isTrue();
            assertThat(r.setup().serverAddress()).isEqualTo(NET + "2:" + r.setup().serverAddress().split(":")[1]);
            assertThat(rep.agents()).extracting(AgentShare::member)
                    .containsExactly("agent-a", "agent-b", "agent-c");
            long sum = rep.agents().stream().filter(s -> s.messages() != null).mapToLong(AgentShare::messages).sum();
            assertThat(r.throughput().messages()).as(protocol + ": merged = sum of the agents'").isEqualTo(sum)
                    .isPositive();
            // each agent's own process, the server's agent's (no clients there) included
            assertThat(rep.agents()).allSatisfy(s -> {
                assertThat(s.cpuPercent()).as(protocol + ": " + s.member() + "'s CPU").isPositive();
                assertThat(s.peakRssBytes()).as(protocol + ": " + s.member() + "'s peak RSS").isPositive();
            });
            assertThat(rep.agents().getFirst().messages()).as("the server's agent alone").isNull();
            ClusterTestSupport.assertStartTold(rep.start(), r, 2, "agent-b", "agent-c");
            ClusterTestSupport.assertMergedTimeline(r, 2);
            await(Duration.ofSeconds(30), "agents idle again", () -> AGENTS.stream()
                    .allMatch(a -> state(a) == AgentState.IDLE));
        }

        CompletableFuture<DistributedRepetition> running = CompletableFuture.supplyAsync(() ->
                DistributedRun.repetition(coordinator, placement("agent-a", "agent-b", "agent-c"),
                        spec(Protocol.TCP, 10), 1), r -> Thread.ofPlatform().start(r));
        await(Duration.ofSeconds(60), "agent-b preparing", () -> state("agent-b") == AgentState.BUSY);
        // set-up, 1 s of warm-up, the clock probes and the 0.2 s lead take well under 5 s, even on a busy machine:
        // mid-phase
        Thread.sleep(5_000);
        processes.get("agent-b").destroyForcibly(); // SIGKILL
        DistributedRepetition failed = running.get(30, TimeUnit.SECONDS);
        assertThat(failed.result().ok()).isFalse();
        assertThat(failed.result().error()).as(agentLogs())
                .startsWith("agent agent-b failed sending its part: it was lost")
                .contains("the start barrier released every client agent");
        await(Duration.ofSeconds(30), "agent-c stopped its clients",
                () -> state("agent-c") == AgentState.IDLE);
        await(Duration.ofSeconds(60), "agent-b gone", () -> state("agent-b") == null);

        DistributedRepetition next = DistributedRun.repetition(coordinator, placement("agent-a", "agent-c"),
                spec(Protocol.TCP, 2), 2);
        assertThat(next.result().ok()).as(next.result().error() + agentLogs()).isTrue();
        assertThat(next.agents()).extracting(AgentShare::member).containsExactly("agent-a", "agent-c");
    }
}
