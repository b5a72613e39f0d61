package io.loopbench.engine;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.LoopPacer;
import io.loopbench.engine.client.PhaseContext;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.process.ProcessMetrics;
import io.loopbench.engine.timeline.TimelineRecording;
import org.HdrHistogram.Histogram;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * arknet's phase, over a repetition's clients: start every client (and, under open load, each loop's pacer), sleep
 * to the deadline, tell the clients to stop, wait at most 2 s for them to drain, then run a barrier task on each
 * client's thread that force-finishes it. Elapsed time and CPU cover the phase, the drain and the barrier. Every phase
 * records into a timeline of its own (all of a warm-up's rounds into one), so that the measured phase runs no code
 * path the warm-up did not; while it sleeps, the runner closes the timeline's finished intervals. Used by the
 * repetition's thread; each client runs on its own.
 */
final class PhaseRunner {

    static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(2);
    static final long BARRIER_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final List<EchoClient> clients;
    private final boolean open;
    private final RunControl control;

    /** @param open whether the load is open: each loop's pacer then sends its clients' messages */
    PhaseRunner(List<EchoClient> clients, boolean open, RunControl control) {
        this.clients = clients;
        this.open = open;
        this.control = control;
    }

    /**
     * One phase's figures: its span (wall clock, for the JIT events; nanoTime, for elapsed, for its end and for the
     * instant its clients were told to stop: it began at {@code endNanos - elapsedNanos}), CPU, GC,
     * whether it drained, why it stopped, open load's histograms and every load's stamp gaps (one per client
     * thread; the RTTs are in the phase's timeline).
     */
    record Outcome(Instant from, Instant to, long elapsedNanos, long endNanos, long stoppedNanos, long cpuNanos,
                   long gcCollections, long gcMillis, boolean drainTimedOut, String stoppedBecause,
                   Map<Object, Histogram> uncorrected, Map<Object, Histogram> sendLag,
                   Map<Object, Histogram> stampGap) {
    }

    /** Runs one phase of {@code seconds} whose messages carry {@code tag}, recording into {@code timeline}. */
    Outcome run(byte tag, double seconds, TimelineRecording timeline) throws Exception {
        Map<Object, Histogram> uncorrected = new HashMap<>();
        Map<Object, Histogram> sendLag = new HashMap<>();
        Map<Object, LoopPacer> pacers = new HashMap<>();
        Map<Object, Histogram> stampGap = new HashMap<>();
        for (EchoClient c : clients) {
            timeline.recorder(c.histogramOwner());
            stampGap.computeIfAbsent(c.histogramOwner(), k -> LatencyHistograms.create());
            if (open) {
                uncorrected.computeIfAbsent(c.histogramOwner(), k -> LatencyHistograms.create());
                sendLag.computeIfAbsent(c.histogramOwner(), k -> LatencyHistograms.create());
                pacers.computeIfAbsent(c.thread(), k -> new LoopPacer(c.executor())).add(c);
            }
        }
        CountDownLatch drained = new CountDownLatch(clients.size());
        long[] gc0 = ProcessMetrics.gc();
        long cpu0 = ProcessMetrics.cpuNanos();
        Instant from = Instant.now();
        long started = System.nanoTime();
        long deadline = started + (long) (seconds * 1e9);
        PhaseContext phase = new PhaseContext(tag, started, deadline, drained, timeline.recorders(), uncorrected,
                sendLag, stampGap);
        for (EchoClient c : clients) {
            c.executor().execute(() -> c.begin(phase));
        }
        for (LoopPacer p : pacers.values()) {
            p.executor().execute(() -> p.start(phase));
        }
        long stoppedAt;
        try {
            control.sleepUntil(deadline, timeline::collect);
        } finally {
            stoppedAt = System.nanoTime();
            for (EchoClient c : clients) {
                c.executor().execute(c::stop);
            }
        }
        boolean drainTimedOut = !drained.await(Math.max(0, stoppedAt + DRAIN_NANOS - System.nanoTime()),
                TimeUnit.NANOSECONDS);
        List<Future<?>> barrier = new ArrayList<>();
        for (EchoClient c : clients) {
            barrier.add(CompletableFuture.runAsync(c::finish, c.executor()));
        }
        for (LoopPacer p : pacers.values()) {
            barrier.add(CompletableFuture.runAsync(p::stop, p.executor()));
        }
        long barrierDeadline = System.nanoTime() + BARRIER_NANOS;
        for (Future<?> f : barrier) {
            try {
                f.get(Math.max(0, barrierDeadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("client IO barrier timed out", e);
            }
        }
        long end = System.nanoTime();
        long cpu1 = ProcessMetrics.cpuNanos();
        long[] gc1 = ProcessMetrics.gc();
        return new Outcome(from, Instant.now(), end - started, end, stoppedAt, cpu1 - cpu0, gc1[0] - gc0[0],
                gc1[1] - gc0[1], drainTimedOut, WarmupResult.TIME, uncorrected, sendLag, stampGap);
    }
}
