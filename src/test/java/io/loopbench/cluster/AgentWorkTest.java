package io.loopbench.cluster;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.spec.WarmupMode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An agent's share of a repetition without the cluster: a server and clients held after warm-up, released, their
 * part taken; clients still running are not replaced, finished ones whose end never came are; the end stops all, a
 * warm-up in progress included; a server alone sends its process's figures from the phase's start.
 */
class AgentWorkTest {

    private static RunSpec.Builder quick() {
        return RunSpec.builder().protocol(Protocol.TCP).clients(2).window(2).ioThreads(1).payloadBytes(128)
                .warmupSeconds(0.2).warmupMode(WarmupMode.FIXED).seconds(0.8).repetitions(1);
    }

    @Test
    void serveHoldReleaseTakeThePartAndEnd() throws Exception {
        List<Integer> told = new CopyOnWriteArrayList<>();
        AgentWork work = new AgentWork("agent-x", (index, interval, rtt) -> told.add(index));
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
            work.beginPhase();
            AgentPart part = work.part(Duration.ofSeconds(10));
            assertThat(part.failure()).isNull();
            assertThat(part.member()).isEqualTo("agent-x");
            assertThat(part.clients()).isEqualTo(2);
            assertThat(part.counts().messages()).isPositive();
            assertThat(LatencyHistograms.decode(part.latencyHistogram()).getTotalCount())
                    .isEqualTo(part.counts().messages());
            // its phase began after the release and was stopped a phase later; its elapsed time adds the drain
            assertThat(part.phase().beganNanos()).isNotNegative();
            assertThat(part.phase().stoppedNanos() - part.phase().beganNanos()).isGreaterThanOrEqualTo(800_000_000L);
            assertThat(part.elapsedSeconds() * 1e9).isGreaterThanOrEqualTo(
                    part.phase().stoppedNanos() - part.phase().beganNanos());
            // its timeline, and each measured interval's RTTs, every echo in one of them: told as each closed too
            int measured = part.timeline().size() - part.timeline().warmupIntervals();
            assertThat(measured).isEqualTo(8);
            assertThat(part.intervalRtts()).hasSize(measured);
            assertThat(part.intervalRtts().stream().mapToLong(h -> LatencyHistograms.decode(h).getTotalCount()).sum())
                    .isEqualTo(part.counts().messages());
            assertThat(told).hasSize(part.timeline().size()).endsWith(0, 1, 2, 3, 4, 5, 6, 7)
                    .startsWith(java.util.Collections.nCopies(part.timeline().warmupIntervals(), -1)
                            .toArray(Integer[]::new));

            // finished clients whose end never came give way to the next ones, against the same server
            work.prepare(clients);
            assertThat(work.end()).isEqualTo("an echo server and 2 clients");
            assertThat(work.busy()).isFalse();
            assertThatThrownBy(work::beginPhase).hasMessageContaining("runs no server or clients to start");
        } finally {
            work.end();
        }
    }

    @Test
    void aServerAloneSendsItsProcessFiguresFromThePhaseStart() throws Exception {
        AgentWork work = new AgentWork("agent-s");
        try {
            work.serve(quick().profiling(io.loopbench.engine.spec.Profiling.CPU).build(), "127.0.0.1");
            assertThatThrownBy(() -> work.part(Duration.ofMillis(100))).as("no phase begun: no part")
                    .hasMessageContaining("has no part");
            work.beginPhase();
            long spin = System.nanoTime() + Duration.ofMillis(300).toNanos();
            while (System.nanoTime() < spin) {
                Thread.onSpinWait(); // CPU this process uses in the phase
            }
            AgentPart part = work.part(Duration.ofSeconds(1));
            assertThat(part.clients()).isZero();
            assertThat(part.counts().messages()).isZero();
            assertThat(part.failure()).isNull();
            assertThat(part.elapsedSeconds()).isGreaterThanOrEqualTo(0.3);
            assertThat(part.cpu().intervalSeconds()).isEqualTo(part.elapsedSeconds());
            assertThat(part.cpu().seconds()).isPositive();
            assertThat(part.cpu().percent()).isPositive();
            if (Files.exists(Path.of("/proc/self/status"))) {
                assertThat(part.memory().peakRssBytes()).isPositive();
            }
            // profiled from the phase's start to the part, the whole process
            assertThat(part.cpuProfile()).as("notes: %s", part.notes()).isNotNull();
            assertThat(part.cpuProfile().profiler()).startsWith("async-profiler");

            // a profile nobody asks for is dropped when the work ends, and the profiler is free again
            work.serve(quick().profiling(io.loopbench.engine.spec.Profiling.CPU).build(), "127.0.0.1");
            work.beginPhase();
            work.end();
            io.loopbench.engine.profile.CpuProfiler.Session next = io.loopbench.engine.profile.CpuProfiler.start(
                    io.loopbench.engine.profile.CpuProfiler.DEFAULT_INTERVAL_MICROS);
            assertThat(next.refused()).isNull();
            next.stop();
            next.profile();
        } finally {
            work.end();
        }
    }

    @Test
    void clientsBesideAProfiledServerTakeTheProfileOfTheWholeProcess() throws Exception {
        AgentWork work = new AgentWork("agent-x");
        try {
            Target server = work.serve(quick().profiling(io.loopbench.engine.spec.Profiling.CPU).build(),
                    "127.0.0.1");
            work.prepare(quick().target(server.toString()).profiling(io.loopbench.engine.spec.Profiling.CPU).build());
            work.beginPhase();
            AgentPart part = work.part(Duration.ofSeconds(10));
            // the server's sampling ended when the clients started: theirs is not refused as a second one
            assertThat(part.notes()).noneMatch(n -> n.contains("CPU profile"));
            assertThat(part.cpuProfile()).isNotNull();
            assertThat(part.cpuProfile().frames()).anyMatch(f -> f.contains("EchoServerHandler"));
        } finally {
            work.end();
        }
    }

    /** Live threads of the engine and of an agent's work (the JIT monitor, once started, stays for the JVM). */
    static Set<Thread> loopbenchThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("loopbench-") && !t.getName().startsWith("loopbench-jit-monitor"))
                .collect(Collectors.toSet());
    }

    @Test
    void anEndDuringTheWarmUpStopsItAtOnceAndReleasesEverything() throws Exception {
        Set<Thread> before = loopbenchThreads();
        AgentWork work = new AgentWork("agent-w");
        try {
            Target server = work.serve(quick().build(), "127.0.0.1");
            AgentWork.Preparing preparing = work.start(quick().target(server.toString()).warmupSeconds(30.0).build());
            CompletableFuture<Throwable> waiter = CompletableFuture.supplyAsync(() -> {
                try {
                    preparing.awaitHeld();
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            }, r -> Thread.ofPlatform().start(r));
            Thread.sleep(1_000); // connected, warming up
            assertThat(waiter).isNotDone();
            long ended = System.nanoTime();
            assertThat(work.end()).isEqualTo("an echo server and 2 clients");
            assertThat(Duration.ofNanos(System.nanoTime() - ended)).as("the warm-up stopped, the clients closed")
                    .isLessThan(Duration.ofSeconds(15)); // half the warm-up it would otherwise wait out
            assertThat(waiter.get(1, TimeUnit.SECONDS)).hasMessageContaining("the repetition ended");
            assertThat(work.busy()).isFalse();
            ClusterTestSupport.await(Duration.ofSeconds(30), "no thread left: " + loopbenchThreads(),
                    () -> before.containsAll(loopbenchThreads()));
            assertThat(work.end()).as("nothing left to stop").isNull();
        } finally {
            work.end();
        }
    }
}
