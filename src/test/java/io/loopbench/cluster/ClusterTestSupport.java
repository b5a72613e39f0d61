package io.loopbench.cluster;

import io.loopbench.engine.RepetitionResult;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.TP;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.stack.ProtocolStack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Cluster members in one JVM on 127.0.0.1, TCP on free ports, discovery by the coordinator's address. */
public final class ClusterTestSupport {

    private static final Random RANDOM = new Random();
    public static final String SECRET = "test-secret-0123456789";

    private ClusterTestSupport() {
    }

    /** A coordinator's settings: a free port, no host list (it is the first member). */
    public static ClusterSettings coordinatorSettings(String cluster, boolean encrypt) {
        return new ClusterSettings(cluster, "127.0.0.1", freePort(), List.of(), null, SECRET, encrypt);
    }

    /** An agent's settings: a free port, discovering the cluster through the coordinator's transport. */
    public static ClusterSettings agentSettings(Coordinator coordinator, String secret, boolean encrypt) {
        return agentSettings(coordinator.clusterName(), coordinator.transportAddress().getPort(), secret, encrypt);
    }

    /** An agent's settings: a free port, discovering the cluster through a coordinator on this port of 127.0.0.1. */
    public static ClusterSettings agentSettings(String cluster, int coordinatorPort, String secret, boolean encrypt) {
        return new ClusterSettings(cluster, "127.0.0.1", freePort(), List.of("127.0.0.1:" + coordinatorPort), null,
                secret, encrypt);
    }

    /**
     * A port on 127.0.0.1 that is free, as are the failure-detection ports above it (JGroups' TCP needs a fixed
     * port). Another process may take it before the member binds it; the range is above Linux's ephemeral ports'
     * usual start to make that unlikely.
     */
    public static synchronized int freePort() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = 20_000 + RANDOM.nextInt(12_000);
            if (free(port) && free(port + ClusterSettings.FAILURE_DETECTION_PORT_OFFSET)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port found");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * As a killed process looks to the others: nothing more goes out or comes in (no leave request), and its failure
     * detection sockets close at once. The member is closed afterwards by its test.
     */
    public static void kill(ClusterMember member) throws Exception {
        member.channel.getProtocolStack().insertProtocol(new DISCARD().discardAll(true),
                ProtocolStack.Position.ABOVE, TP.class);
        member.channel.getProtocolStack().findProtocol(FD_SOCK2.class).stop();
        // its test closes it later: no need to wait for an answer to a leave request that cannot go out
        member.channel.getProtocolStack().<GMS>findProtocol(GMS.class).setLeaveTimeout(1);
    }

    /**
     * Whether one of {@code others} watches {@code member} through its failure-detection socket: its kill is then
     * noticed by that socket closing, at once. After each view change the ring of watching sockets is built anew, and
     * a member killed before it is watched again is found only by the heartbeats' timeout.
     */
    public static boolean watched(ClusterMember member, List<? extends ClusterMember> others) {
        String name = String.valueOf(member.address());
        return others.stream().map(o -> o.channel.getProtocolStack().<FD_SOCK2>findProtocol(FD_SOCK2.class))
                .anyMatch(fd -> fd.getClientState().equals("CONNECTED") && fd.getPingDest().startsWith(name + " "));
    }

    /** Waits until the condition holds; how long it took, or an AssertionError after {@code limit}. */
    public static Duration await(Duration limit, String what, BooleanSupplier condition) throws InterruptedException {
        return await(limit, what, condition, () -> "");
    }

    /** As {@link #await(Duration, String, BooleanSupplier)}, the error telling {@code state} as it was at the end. */
    public static Duration await(Duration limit, String what, BooleanSupplier condition, Supplier<?> state)
            throws InterruptedException {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - start > limit.toNanos()) {
                throw new AssertionError("not within " + limit + ": " + what + " " + state.get());
            }
            Thread.sleep(20);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** What a coordinator sees of its cluster: its agents with their states, and its view's members. */
    public static String seen(Coordinator coordinator) {
        return "(agents " + coordinator.agents().stream().map(a -> a.member() + " " + a.state().label()).toList()
                + ", view " + coordinator.members() + ")";
    }

    /**
     * The start as a repetition's result must tell it: every client agent's measured phase's start and stop, the skews
     * their spreads, the overlap from the latest start to the earliest stop, and a skew that with its uncertainty
     * exceeds {@link StartReport#TOLERANCE} of the phase among the warnings, naming the last agent. No bound on the
     * skew itself: a process on a machine the test shares can be descheduled past any bound, and the barrier's
     * precision has tests of its own (a known true skew in one JVM, the median of several starts across processes).
     */
    public static void assertStartTold(StartReport start, RepetitionResult result, double phaseSeconds,
                                       String... clientAgents) {
        assertThat(start.starts()).extracting(AgentStart::member).containsExactly(clientAgents);
        assertThat(start.starts()).allSatisfy(s -> assertThat(s.noticeNanos()).isNotNull());
        // each agent's clients began after their release and were told to stop no sooner than a phase later
        assertThat(start.starts()).allSatisfy(s -> assertThat(s.phase().beganNanos()).isNotNegative());
        assertThat(start.starts()).allSatisfy(s -> assertThat(s.phase().stoppedNanos() - s.phase().beganNanos())
                .isGreaterThanOrEqualTo((long) (phaseSeconds * 1e9)));
        long min = start.starts().stream().mapToLong(AgentStart::phaseLateNanos).min().orElseThrow();
        long max = start.starts().stream().mapToLong(AgentStart::phaseLateNanos).max().orElseThrow();
        assertThat(start.skewNanos()).isEqualTo(max - min);
        long earliestStop = start.starts().stream().mapToLong(AgentStart::phaseStopLateNanos).min().orElseThrow();
        assertThat(start.overlapNanos()).isEqualTo(earliestStop - max);
        List<String> skewWarnings = result.checks().warnings().stream().filter(w -> w.startsWith("start skew"))
                .toList();
        if (Math.max(start.skewNanos(), start.stopSkewNanos()) + start.skewUncertaintyNanos()
                > StartReport.TOLERANCE * phaseSeconds * 1e9) {
            assertThat(skewWarnings).as(start.toString()).containsExactly(start.warning(phaseSeconds));
        } else {
            assertThat(skewWarnings).as(start.toString()).isEmpty();
        }
    }

    /**
     * The measured phase over time, merged from every client agent's: one interval per 100 ms of the phase, no
     * warm-up, the intervals' round trips adding up to the merged messages, and a p99 within the merged maximum
     * wherever echoes came back.
     */
    public static void assertMergedTimeline(RepetitionResult r, double seconds) {
        assertThat(r.timeline()).as("merged timeline").isNotNull();
        assertThat(r.timeline().warmupIntervals()).isZero();
        assertThat(r.timeline().size()).isEqualTo((int) Math.round(seconds * 1000 / r.timeline().intervalMillis()));
        assertThat(r.timeline().roundTrips().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(r.throughput().messages());
        for (int i = 0; i < r.timeline().size(); i++) {
            double p99 = r.timeline().p99Us().get(i);
            assertThat(p99 > 0).as("interval %d: a p99 where it had echoes", i)
                    .isEqualTo(r.timeline().roundTrips().get(i) > 0);
            assertThat(p99).isLessThanOrEqualTo(r.rtt().latency().maxUs());
        }
    }
}
