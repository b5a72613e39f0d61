package io.loopbench.cluster;

import io.loopbench.SystemTest;
import org.jgroups.JChannel;
import org.jgroups.protocols.pbcast.GMS;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static io.loopbench.cluster.ClusterTestSupport.SECRET;
import static io.loopbench.cluster.ClusterTestSupport.agentSettings;
import static io.loopbench.cluster.ClusterTestSupport.await;
import static io.loopbench.cluster.ClusterTestSupport.coordinatorSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Membership over the real stack (TCP on 127.0.0.1, several members in one JVM): who is listed with what, who is
 * refused, how members started in any order find each other, and how soon a member that leaves or dies is noticed.
 */
@SystemTest
class ClusterMembershipTest {

    /**
     * One cluster from start to loss (one test, since each member's start waits for discovery): an agent started
     * before its coordinator is merged into the coordinator's cluster; a member with another secret is refused and
     * never in the view; the coordinator lists each agent with its facts and follows its state; an agent that
     * leaves, then one that is killed, is dropped within seconds; when the coordinator itself is killed, the last
     * agent runs its coordinator-lost hook, once, within seconds.
     */
    @Test
    void theCoordinatorListsAgentsFollowsTheirStateAndEachSideNoticesTheOthersLoss() throws Exception {
        CountDownLatch lost = new CountDownLatch(1);
        AtomicInteger hookRuns = new AtomicInteger();
        int port = ClusterTestSupport.freePort();
        Agent early = Agent.join(agentSettings("life", port, SECRET, false), "agent-1", () -> {
            hookRuns.incrementAndGet();
            lost.countDown();
        });
        // nobody answered its discovery: it formed a cluster of its own
        assertThat(early.members()).containsExactly(early.address());
        Coordinator coordinator = Coordinator.join(new ClusterSettings("life", "127.0.0.1", port, List.of(), null,
                SECRET, false), "coordinator");
        long coordinatorUp = System.nanoTime();
        try (Agent one = early;
             Agent two = Agent.join(agentSettings(coordinator, SECRET, false), "agent-2", () -> { });
             Agent three = Agent.join(agentSettings(coordinator, SECRET, false), "agent-3", () -> { })) {
            assertThatThrownBy(() -> Agent.join(agentSettings(coordinator, "another-secret-0123456", false),
                    "rogue", () -> { }))
                    .isInstanceOf(SecurityException.class)
                    .hasMessageContaining("authentication failed");

            await(Duration.ofSeconds(60), "three agents idle in " + coordinator.agents(), () -> coordinator.agents()
                    .stream().filter(a -> a.state() == AgentState.IDLE).count() == 3);
            assertThat(Duration.ofNanos(System.nanoTime() - coordinatorUp)).as("agent-1 merged")
                    .isLessThan(Duration.ofMillis(3 * ClusterStack.MERGE_MAX_INTERVAL_MILLIS));
            assertThat(coordinator.members()).hasSize(4);
            List<KnownAgent> agents = coordinator.agents();
            assertThat(agents).extracting(KnownAgent::member).containsExactly("agent-1", "agent-2", "agent-3");
            for (KnownAgent a : agents) {
                assertThat(a.address()).isEqualTo("127.0.0.1");
                MemberFacts f = a.facts();
                assertThat(f.role()).isEqualTo(MemberRole.AGENT);
                assertThat(f.hostName()).isEqualTo(MemberFacts.localHostName());
                assertThat(f.logicalCpus()).isEqualTo(Runtime.getRuntime().availableProcessors());
                assertThat(f.javaVersion()).isEqualTo(System.getProperty("java.version"));
                assertThat(f.javaVendor()).isEqualTo(System.getProperty("java.vendor"));
                assertThat(f.nettyVersion()).matches("4\\.\\d+\\..*");
            }
            assertThat(one.coordinator()).contains(coordinator.address());

            one.state(AgentState.BUSY);
            await(Duration.ofSeconds(30), "agent-1 busy", () -> coordinator.agents().getFirst().state()
                    == AgentState.BUSY);
            assertThat(coordinator.agents().get(1).state()).isEqualTo(AgentState.IDLE);
            one.state(AgentState.IDLE);
            await(Duration.ofSeconds(30), "agent-1 idle again", () -> coordinator.agents().getFirst().state()
                    == AgentState.IDLE);

            // The leave is announced in one view every member holds: a member still installing the merged view (a
            // loaded machine's agent-2 once held a view without agent-1) may leave one its coordinator has moved past.
            await(Duration.ofSeconds(60), "one view of four at every member", () -> Stream.of(one, two, three)
                    .allMatch(m -> m.members().equals(coordinator.members())) && coordinator.members().size() == 4);
            two.close();
            Duration left = await(Duration.ofSeconds(30), "leaving agent dropped",
                    () -> coordinator.agents().size() == 2);
            // a leave announced, not a silence noticed
            assertThat(left).isLessThan(Duration.ofMillis(ClusterStack.HEARTBEAT_TIMEOUT_MILLIS));
            assertThat(coordinator.agents()).extracting(KnownAgent::member).containsExactly("agent-1", "agent-3");

            await(Duration.ofSeconds(30), "agent-3 watched by a neighbour's socket",
                    () -> ClusterTestSupport.watched(three, List.of(one, coordinator)));
            ClusterTestSupport.kill(three);
            Duration died = await(Duration.ofSeconds(60), "killed agent dropped",
                    () -> coordinator.agents().size() == 1);
            // the closed failure-detection socket, not the heartbeats' timeout, found it
            assertThat(died).isLessThan(Duration.ofMillis(ClusterStack.HEARTBEAT_TIMEOUT_MILLIS));
            assertThat(hookRuns).as("agent-1 still has its coordinator").hasValue(0);

            await(Duration.ofSeconds(30), "the coordinator watched by agent-1's socket",
                    () -> ClusterTestSupport.watched(coordinator, List.of(one)));
            ClusterTestSupport.kill(coordinator);
            long start = System.nanoTime();
            assertThat(lost.await(60, TimeUnit.SECONDS)).as("coordinator-lost hook ran").isTrue();
            // its closed socket again, not the heartbeats' timeout
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isLessThan(Duration.ofMillis(ClusterStack.HEARTBEAT_TIMEOUT_MILLIS));
            assertThat(one.coordinator()).isEmpty();
            assertThat(one.members()).doesNotContain(coordinator.address());
            Thread.sleep(300);
            assertThat(hookRuns).hasValue(1);
        } finally {
            coordinator.close();
        }
    }

    /**
     * The cluster runs on platform threads: with every carrier of the JVM's virtual threads held (capped at 2 here,
     * as an agent's virtual-threads execution caps them to its ioThreads; held by virtual threads blocked reading
     * pipes), an agent still joins and is listed idle. On JGroups' default virtual threads it waited until the
     * carriers came free.
     */
    @Test
    void aClusterFormsWhileEveryVirtualThreadCarrierIsHeld() throws Exception {
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.maxPoolSize", Integer.MAX_VALUE);
        org.junit.jupiter.api.Assumptions.assumeTrue(carriers <= 2,
                "skipped: the carriers are not capped at 2 in this JVM, so this test cannot hold them all");
        List<Process> holders = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < carriers; i++) {
                Process p = new ProcessBuilder("sleep", "600").start();
                holders.add(p);
                Thread.ofVirtual().start(() -> {
                    try {
                        p.getInputStream().readAllBytes(); // blocks, holding its carrier, until p ends
                    } catch (java.io.IOException e) {
                        // p destroyed
                    }
                });
            }
            java.util.concurrent.CompletableFuture<Void> probe = new java.util.concurrent.CompletableFuture<>();
            Thread.ofVirtual().start(() -> probe.complete(null));
            org.junit.jupiter.api.Assumptions.assumeFalse(probeRan(probe),
                    "skipped: a virtual thread still ran, so the carriers were not all held");
            try (Coordinator coordinator = Coordinator.join(coordinatorSettings("carriers-held", false), "coordinator");
                 Agent agent = Agent.join(agentSettings(coordinator, SECRET, false), "agent-1", () -> { })) {
                await(Duration.ofSeconds(60), "agent-1 idle", () -> coordinator.agents().size() == 1
                        && coordinator.agents().getFirst().state() == AgentState.IDLE,
                        () -> ClusterTestSupport.seen(coordinator));
                assertThat(agent.coordinator()).contains(coordinator.address());
            }
            assertThat(probe).as("the carriers were held throughout").isNotDone();
        } finally {
            holders.forEach(Process::destroyForcibly);
        }
    }

    /** Whether the probe ran within a second: the carriers were not all held. */
    private static boolean probeRan(java.util.concurrent.CompletableFuture<Void> probe) throws InterruptedException {
        try {
            probe.get(1, TimeUnit.SECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            return false;
        }
    }

    @Test
    void withEncryptionAMemberWithAnotherSecretCannotEvenBeReadAndNeverJoins() throws Exception {
        try (Coordinator coordinator = Coordinator.join(coordinatorSettings("encrypted", true), "coordinator");
             Agent good = Agent.join(agentSettings(coordinator, SECRET, true), "good", () -> { })) {
            await(Duration.ofSeconds(30), "good agent idle", () -> !coordinator.agents().isEmpty()
                    && coordinator.agents().getFirst().state() == AgentState.IDLE);
            // Its join requests are undecipherable to the coordinator, which drops them; after its attempts (two
            // here, ten for an agent) the joiner forms a cluster of its own, which the others can never merge with.
            JChannel rogue = ClusterStack.open(agentSettings(coordinator, "another-secret-0123456", true), "rogue");
            try {
                rogue.getProtocolStack().<GMS>findProtocol(GMS.class).setMaxJoinAttempts(2);
                rogue.connect(coordinator.clusterName());
                assertThat(rogue.getView().getMembers()).containsExactly(rogue.getAddress());
            } finally {
                rogue.close();
            }
            assertThat(coordinator.members()).hasSize(2).doesNotContain(rogue.getAddress());
            assertThat(coordinator.agents()).extracting(KnownAgent::member).containsExactly("good");
        }
    }
}
