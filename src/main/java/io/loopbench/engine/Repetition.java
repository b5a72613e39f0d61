package io.loopbench.engine;

import org.HdrHistogram.Histogram;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One repetition, run by one thread from start to end: opens its {@link EchoPair} (its own loops or carrier
 * threads, servers bound on port 0, clients connected one at a time), runs warm-up then the measured phase, and
 * closes the pair — on success, failure and cancellation alike.
 */
final class Repetition {

    static final Duration SETUP_TIMEOUT = Duration.ofSeconds(10);
    static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(2);
    static final long BARRIER_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final RunSpec spec;
    private final int index;
    private final Transport transport;
    private final ServerFault fault;
    private final ProgressListener progress;
    private final RunControl control;

    private final ServerStats serverStats = new ServerStats();
    private List<EchoClient> clients = List.of();

    Repetition(RunSpec spec, int index, Transport transport, ServerFault fault, ProgressListener progress,
               RunControl control) {
        this.spec = spec;
        this.index = index;
        this.transport = transport;
        this.fault = fault;
        this.progress = progress;
        this.control = control;
    }

    RepetitionResult run() {
        ServerCheck check = new ServerCheck(spec.work(), serverStats);
        EchoPair pair = spec.execution() == Execution.VIRTUAL_THREADS
                ? new BlockingEchoPair(spec, check, control)
                : new NettyEchoPair(spec, transport, check, fault, control);
        try {
            clients = pair.open();
            return measure(pair);
        } catch (CancellationException e) {
            throw e;
        } catch (Exception e) {
            return RepetitionResult.setupFailed(index, transport, spec.ioThreads(), "set-up failed: " + e);
        } finally {
            pair.close();
        }
    }

    private RepetitionResult measure(EchoPair pair) throws Exception {
        PhaseOutcome warmup = null;
        if (spec.warmupSeconds() > 0) {
            progress.phaseStarted(index, "warmup", spec.warmupSeconds());
            warmup = runPhase(MessageFormat.WARMUP_TAG, spec.warmupSeconds(), Map.of(), Map.of());
        }
        boolean open = spec.load() == LoadModel.OPEN;
        Map<Object, Histogram> histograms = new HashMap<>();
        Map<Object, Histogram> uncorrected = new HashMap<>();
        for (EchoClient c : clients) {
            histograms.computeIfAbsent(c.histogramOwner(), k -> new Histogram(EchoClient.MAX_TRACKED_NANOS, 3));
            if (open) {
                uncorrected.computeIfAbsent(c.histogramOwner(), k -> new Histogram(EchoClient.MAX_TRACKED_NANOS, 3));
            }
        }
        progress.phaseStarted(index, "measured", spec.seconds());
        PhaseOutcome measured = runPhase(MessageFormat.MEASURED_TAG, spec.seconds(), histograms, uncorrected);
        MemoryUsage memory = ProcessMetrics.memory();

        Histogram all = merged(histograms);
        PhaseCounters m = sum(MessageFormat.MEASURED_TAG);
        ErrorCounts errors = errors(m, MessageFormat.MEASURED_TAG, measured.drainTimedOut());
        double elapsed = measured.elapsedNanos() / 1e9;
        WarmupResult warmupResult = null;
        String error = null;
        if (warmup != null) {
            PhaseCounters w = sum(MessageFormat.WARMUP_TAG);
            ErrorCounts warmupErrors = errors(w, MessageFormat.WARMUP_TAG, warmup.drainTimedOut());
            warmupResult = new WarmupResult(warmup.elapsedNanos() / 1e9, w.messages, warmupErrors);
            if (warmupErrors.total() > 0) {
                error = "warmup: " + warmupErrors.describeNonZero() + firstError(w);
            } else if (w.messages == 0) {
                error = "warmup: no echo completed";
            }
        }
        if (error == null && errors.total() > 0) {
            error = "measured phase: " + errors.describeNonZero() + firstError(m);
        } else if (error == null && m.messages == 0) {
            error = "measured phase: no echo completed";
        }
        boolean batchRtt = spec.windowMode() == WindowMode.BATCH && spec.window() > 1;
        Latency latency = latency(batchRtt ? LatencyMode.BATCH : LatencyMode.MESSAGE, all);
        Latency uncorrectedLatency = open ? latency(LatencyMode.MESSAGE, merged(uncorrected)) : null;
        OpenLoad openLoad = open ? new OpenLoad(spec.rate(), m.intendedMessages, m.lateMessages, m.droppedMessages)
                : null;
        double cpuSeconds = measured.cpuNanos() / 1e9;
        return new RepetitionResult(index, error == null, error, transport, pair.serverChannel(),
                pair.clientChannel(), pair.serverAddresses(), pair.clientAddress(), spec.target() != null,
                pair.threads(), pair.connectionsOnOneThread(), pair.tcpNoDelay(), pair.udpBuffers(),
                elapsed, m.messagesSent, m.messages, m.messages / elapsed,
                2.0 * spec.payloadBytes() * m.messages / elapsed / (1 << 20),
                latency, new CpuUsage(cpuSeconds, elapsed, cpuSeconds / elapsed * 100), memory,
                new GcActivity(measured.gcCollections(), measured.gcMillis()), errors, warmupResult,
                uncorrectedLatency, openLoad);
    }

    private static Histogram merged(Map<Object, Histogram> perLoop) {
        Histogram all = new Histogram(EchoClient.MAX_TRACKED_NANOS, 3);
        perLoop.values().forEach(all::add);
        return all;
    }

    private static Latency latency(LatencyMode mode, Histogram h) {
        return new Latency(mode, h.getTotalCount(), micros(h.getValueAtPercentile(50)),
                micros(h.getValueAtPercentile(90)), micros(h.getValueAtPercentile(95)),
                micros(h.getValueAtPercentile(99)), micros(h.getValueAtPercentile(99.9)), micros(h.getMaxValue()),
                h.getMean() / 1000.0);
    }

    private record PhaseOutcome(long elapsedNanos, long cpuNanos, long gcCollections, long gcMillis,
                                boolean drainTimedOut) {
    }

    /**
     * arknet's phase: start every client, sleep to the deadline, tell the clients to stop, wait at most 2 s for
     * them to drain, then run a barrier task on each client's thread that force-finishes it. Elapsed time and CPU
     * cover the phase, the drain and the barrier.
     */
    private PhaseOutcome runPhase(byte tag, double seconds, Map<Object, Histogram> histograms,
                                  Map<Object, Histogram> uncorrected) throws Exception {
        CountDownLatch drained = new CountDownLatch(clients.size());
        long[] gc0 = ProcessMetrics.gc();
        long cpu0 = ProcessMetrics.cpuNanos();
        long started = System.nanoTime();
        long deadline = started + (long) (seconds * 1e9);
        PhaseContext phase = new PhaseContext(tag, started, deadline, drained, histograms, uncorrected);
        for (EchoClient c : clients) {
            c.executor().execute(() -> c.begin(phase));
        }
        try {
            control.sleepUntil(deadline);
        } finally {
            for (EchoClient c : clients) {
                c.executor().execute(c::stop);
            }
        }
        boolean drainTimedOut = !drained.await(Math.max(0, deadline + DRAIN_NANOS - System.nanoTime()),
                TimeUnit.NANOSECONDS);
        List<Future<?>> barrier = new ArrayList<>();
        for (EchoClient c : clients) {
            barrier.add(CompletableFuture.runAsync(c::finish, c.executor()));
        }
        long barrierDeadline = System.nanoTime() + BARRIER_NANOS;
        for (Future<?> f : barrier) {
            try {
                f.get(Math.max(0, barrierDeadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("client IO barrier timed out", e);
            }
        }
        long elapsed = System.nanoTime() - started;
        long cpu1 = ProcessMetrics.cpuNanos();
        long[] gc1 = ProcessMetrics.gc();
        return new PhaseOutcome(elapsed, cpu1 - cpu0, gc1[0] - gc0[0], gc1[1] - gc0[1], drainTimedOut);
    }

    private PhaseCounters sum(byte tag) {
        PhaseCounters total = new PhaseCounters();
        for (EchoClient c : clients) {
            total.add(c.counters(tag));
        }
        return total;
    }

    private ErrorCounts errors(PhaseCounters c, byte tag, boolean drainTimedOut) {
        return new ErrorCounts(c.contentErrors + serverStats.contentErrors[tag].sum(), c.orderErrors,
                c.unexpectedMessages, c.disconnectErrors, c.lostMessages, c.unfinishedMessages, c.sendFailures,
                serverStats.sendFailures[tag].sum(), c.exceptions + serverStats.exceptions[tag].sum(),
                drainTimedOut ? 1 : 0);
    }

    private String firstError(PhaseCounters c) {
        String first = c.firstError != null ? c.firstError : serverStats.firstError();
        return first == null ? "" : " (first: " + first + ")";
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }

    static InetAddress loopback(AddressFamily family) throws UnknownHostException {
        return InetAddress.getByName(family == AddressFamily.IPV4 ? "127.0.0.1" : "::1");
    }
}
