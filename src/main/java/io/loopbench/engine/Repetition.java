package io.loopbench.engine;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.EchoPair;
import io.loopbench.engine.client.GroupShare;
import io.loopbench.engine.client.LoopPacer;
import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.netty.HandlerEnds;
import io.loopbench.engine.netty.NettyEchoPair;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.GcActivity;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.process.JvmEvents;
import io.loopbench.engine.process.MemoryUsage;
import io.loopbench.engine.process.ProcessMetrics;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.profile.CpuProfiler;
import io.loopbench.engine.protocol.BlockingProtocol;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.reactive.ReactiveEnds;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerFault;
import io.loopbench.engine.server.ServerStats;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.Profiling;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.WindowMode;
import io.loopbench.engine.timeline.Timeline;
import io.loopbench.engine.timeline.TimelineInterval;
import io.loopbench.engine.timeline.TimelineRecording;
import io.loopbench.engine.virtualthreads.BlockingEchoPair;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * One repetition, run by one thread from start to end: opens its {@link EchoPair} (its own loops or carrier
 * threads, servers bound on port 0, clients connected one at a time), runs warm-up then the measured phase, and
 * closes the pair — on success, failure and cancellation alike.
 */
final class Repetition {

    private final RunSpec spec;
    private final int index;
    private final Transport transport;
    private final ServerFault fault;
    private final ProgressListener progress;
    private final RunControl control;
    /** Whether the flight recorder's JIT and GC events are watched ({@link Measurement#withoutJvmEvents()}). */
    private final boolean jvmEvents;

    private final ServerStats serverStats = new ServerStats();
    private List<EchoClient> clients = List.of();
    /** The CPU profile's sampling, from the warm-up's start (see {@link CpuProfiler.Session#restart}); or null. */
    private CpuProfiler.Session profiling;

    Repetition(RunSpec spec, int index, Transport transport, ServerFault fault, ProgressListener progress,
               RunControl control, boolean jvmEvents) {
        this.spec = spec;
        this.jvmEvents = jvmEvents;
        this.index = index;
        this.transport = transport;
        this.fault = fault;
        this.progress = progress;
        this.control = control;
    }

    RepetitionResult run() {
        ServerCheck check = new ServerCheck(spec.work(), serverStats);
        EchoProtocol protocol = Protocols.of(spec);
        Runnable checkpoint = control::throwIfCancelled;
        EchoPair pair = switch (spec.execution()) {
            case NETTY -> new NettyEchoPair(spec, transport, protocol,
                    new HandlerEnds(spec.payloadBytes(), check, fault, protocol), checkpoint);
            case REACTIVE -> new NettyEchoPair(spec, transport, protocol,
                    new ReactiveEnds(spec.payloadBytes(), protocol.stream(), check), checkpoint);
            // the spec's rules let only a protocol with blocking ends run on virtual threads (Protocol.runsOn)
            case VIRTUAL_THREADS -> new BlockingEchoPair(spec, (BlockingProtocol) protocol, check, checkpoint);
        };
        try {
            clients = pair.open();
            return measure(pair, protocol, new PhaseRunner(clients, spec.load() == LoadModel.OPEN, control));
        } catch (CancellationException e) {
            throw e;
        } catch (Exception e) {
            return RepetitionResult.failed(index, transport, spec.ioThreads(), new Failure.SetUp(withCauses(e)));
        } finally {
            if (profiling != null) {
                profiling.close(); // a cancelled or failed repetition releases the profiler too
            }
            pair.close();
        }
    }

    private RepetitionResult measure(EchoPair pair, EchoProtocol protocol, PhaseRunner phases) throws Exception {
        // a layout that puts some clients on their server end's thread and others not keeps each group's RTTs apart
        List<Boolean> sameThread = pair.sameThread();
        if (sameThread != null && sameThread.contains(true) && sameThread.contains(false)) {
            for (int i = 0; i < clients.size(); i++) {
                clients.get(i).group(sameThread.get(i));
            }
        }
        long intervalNanos = spec.timelineIntervalMillis() * 1_000_000L;
        TimelineRecording.Listener toProgress = (interval, rtt) -> progress.intervalRecorded(index, interval, rtt);
        PhaseRunner.Outcome warmup = null;
        WarmupRounds.Outcome warmed = null;
        TimelineRecording warmupRecording = null;
        TimelineRecording.Result warmupTimeline = null;
        profiling = spec.profiling() == Profiling.CPU ? CpuProfiler.start(CpuProfiler.DEFAULT_INTERVAL_MICROS) : null;
        String noProfile = profiling == null ? null : profiling.refused();
        if (spec.warmupSeconds() > 0) {
            progress.phaseStarted(index, TimelineInterval.WARMUP, spec.warmupLimitSeconds());
            warmupRecording = new TimelineRecording(TimelineInterval.WARMUP, null, intervalNanos, 0, toProgress);
            warmed = new WarmupRounds(spec, jvmEvents).run(phases, warmupRecording,
                    () -> sum(MessageFormat.WARMUP_TAG).messages());
            warmup = warmed.phase();
            warmupTimeline = warmupRecording.finish(warmup.endNanos());
        }
        // Waits, if need be, for the monitor started after the warm-up's first round (or starts it, with no warm-up):
        // the measured phase's events must all be seen. A fresh JVM's warm-up activity counts only what the monitor
        // saw: it misses its first round or more.
        JvmEvents jit = jvmEvents ? JvmEvents.get() : null;
        control.beforeMeasuredPhase();
        progress.phaseStarted(index, TimelineInterval.MEASURED, spec.seconds());
        TimelineRecording measuredRecording = new TimelineRecording(TimelineInterval.MEASURED, warmupRecording,
                intervalNanos, spec.seconds(), toProgress);
        // the profile holds the measured phase and its drain only: restarted last, stopped first
        noProfile = profileStep(noProfile, CpuProfiler.Session::restart);
        PhaseRunner.Outcome measured = phases.run(MessageFormat.MEASURED_TAG, spec.seconds(), measuredRecording);
        noProfile = profileStep(noProfile, CpuProfiler.Session::stop);
        progress.measuredPhaseRan(index, measured.endNanos() - measured.elapsedNanos(), measured.stoppedNanos());
        TimelineRecording.Result measuredTimeline = measuredRecording.finish(measured.endNanos());
        MemoryUsage memory = ProcessMetrics.memory();
        CpuProfile profile = null;
        if (profiling != null && noProfile == null) {
            try {
                profile = profiling.profile(); // after the memory reading: building it allocates
            } catch (IllegalStateException e) {
                noProfile = e.getMessage();
            }
        }
        boolean jitKnown = jit == null || jit.awaitEvents();
        JitActivity measuredJit = jit == null ? null : jit.activity(measured.from(), measured.to(),
                JitActivity.capacityNanos(measured.elapsedNanos()));
        Timeline timeline = Timeline.of(spec.timelineIntervalMillis(), warmupTimeline, measuredTimeline,
                jit == null ? List.of() : jit.eventsIn(warmup != null ? warmup.from() : measured.from(), measured.to()),
                spec.load() == LoadModel.OPEN);

        PhaseCounts m = sum(MessageFormat.MEASURED_TAG);
        ErrorCounts errors = errors(m, MessageFormat.MEASURED_TAG, measured.drainTimedOut());
        double elapsed = measured.elapsedNanos() / 1e9;
        WarmupResult warmupResult = null;
        Failure failure = null;
        List<String> warnings = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (warmup != null) {
            PhaseCounts w = sum(MessageFormat.WARMUP_TAG);
            ErrorCounts warmupErrors = errors(w, MessageFormat.WARMUP_TAG, warmup.drainTimedOut());
            warmupResult = new WarmupResult(spec.warmupMode(), warmup.elapsedNanos() / 1e9, w.messages(), warmupErrors,
                    warmup.stoppedBecause(), warmed.heldBackBy(),
                    jit == null ? null
                    : jit.activity(warmup.from(), warmup.to(), JitActivity.capacityNanos(warmup.elapsedNanos())));
            if (warmupErrors.total() > 0) {
                failure = new Failure.ErrorCounters("warmup", warmupErrors.describeNonZero(), firstError(w));
            } else if (w.messages() == 0) {
                failure = new Failure.NoEcho("warmup");
            }
            if (warmupResult.capped()) {
                // a JIT still busy is judged again by the measured phase's own rule below; a trend is not
                (warmed.byJit() ? notes : warnings).add(warmupResult.capWords(spec.warmupMaxSeconds()));
            }
        }
        if (failure == null && errors.total() > 0) {
            failure = new Failure.ErrorCounters("measured phase", errors.describeNonZero(), firstError(m));
        } else if (failure == null && m.messages() == 0) {
            failure = new Failure.NoEcho("measured phase");
        }
        boolean open = spec.load() == LoadModel.OPEN;
        boolean batchRtt = spec.windowMode() == WindowMode.BATCH && spec.window() > 1;
        Histogram all = measuredTimeline.rtt();
        Latency latency = LatencyHistograms.latency(batchRtt ? LatencyMode.BATCH : LatencyMode.MESSAGE, all);
        Latency uncorrectedLatency = open ? LatencyHistograms.latency(LatencyMode.MESSAGE,
                LatencyHistograms.merged(measured.uncorrected().values())) : null;
        double roundTripsPerSecond = m.messages() / elapsed;
        OpenLoad openLoad = open ? OpenLoad.of(spec.rate(), m.intendedMessages(), m.lateMessages(),
                m.droppedMessages(), LoopPacer.LATE_THRESHOLD_NANOS / 1000.0,
                LatencyHistograms.latency(LatencyMode.MESSAGE, LatencyHistograms.merged(measured.sendLag().values())),
                m.messages(), clientSpread()) : null;
        if (openLoad != null && openLoad.overloaded()) { // always set by of()
            warnings.add(openLoad.warning(m.messages()));
        }
        String unevenOpen = openLoad == null ? null : openLoad.clientSpread().warning();
        if (unevenOpen != null) {
            warnings.add(unevenOpen);
        }
        long[] perClient = clients.stream().mapToLong(c -> c.counts(MessageFormat.MEASURED_TAG).messages()).toArray();
        Fairness fairness = Fairness.of(perClient).withPopulations(ClientPopulations.of(perClient, sameThread,
                !open && !batchRtt ? spec.window() : null, elapsed, groupP99(measuredTimeline, true, batchRtt),
                groupP99(measuredTimeline, false, batchRtt)));
        if (failure == null) {
            failure = unfairness(perClient, fairness, open ? uncorrectedLatency : latency);
        }
        String uneven = fairness.warning();
        if (uneven != null) {
            warnings.add(uneven);
        }
        WindowFill windowFill = null;
        if (!open && !batchRtt && m.messages() > 0) {
            windowFill = WindowFill.of(spec.clients(), spec.window(), roundTripsPerSecond, latency.meanUs());
            if (!windowFill.holds()) {
                warnings.add(windowFill.warning());
            }
        }
        StampGap stampGap = null;
        if (m.messages() > 0) {
            // against the RTT from the actual send time: under open load the corrected RTT adds the pacer's lag
            stampGap = StampGap.of(LatencyHistograms.merged(measured.stampGap().values()),
                    open ? uncorrectedLatency : LatencyHistograms.latency(LatencyMode.MESSAGE, all));
            if (!stampGap.holds()) {
                warnings.add(stampGap.warning());
            }
        }
        if (measuredJit != null && !measuredJit.quiet()) {
            warnings.add(measuredJit.warning());
        }
        if (!jitKnown) {
            notes.add(JvmEvents.UNKNOWN_NOTE);
        }
        if (noProfile != null) {
            notes.add("no CPU profile: " + noProfile);
        } else if (profile != null && profile.fallback() != null) {
            notes.add("CPU profile by the " + profile.profiler() + ", Java frames only: " + profile.fallback());
        }
        double cpuSeconds = measured.cpuNanos() / 1e9;
        return new RepetitionResult(index, failure == null, null, failure, transport, pair.serverChannel(),
                pair.clientChannel(), pair.serverAddresses(), pair.clientAddress(), spec.target() != null,
                pair.threads(), pair.connectionsOnOneThread(), pair.tcpNoDelay(), pair.udpBuffers(),
                protocol.tlsSession(), elapsed, m.messagesSent(), m.messages(), roundTripsPerSecond,
                2.0 * spec.payloadBytes() * m.messages() / elapsed / (1 << 20),
                latency, new CpuUsage(cpuSeconds, elapsed, cpuSeconds / elapsed * 100), memory,
                new GcActivity(measured.gcCollections(), measured.gcMillis()), errors, warmupResult,
                uncorrectedLatency, openLoad, measuredJit, fairness, windowFill, stampGap, warnings, notes,
                LatencyHistograms.encode(all), timeline, profile);
    }

    /**
     * One step of the profile's sampling, unless there is none or an earlier step failed; returns why there is no
     * profile, or null.
     */
    private String profileStep(String noProfile, java.util.function.Consumer<CpuProfiler.Session> step) {
        if (profiling == null || noProfile != null) {
            return noProfile;
        }
        try {
            step.accept(profiling);
            return null;
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }

    /** Open load: the clients' corrected p99s and dropped shares of the measured phase, lowest and highest. */
    private OpenLoad.ClientSpread clientSpread() {
        long fewest = Long.MAX_VALUE;
        double minP99 = Double.MAX_VALUE;
        double maxP99 = 0;
        double minDropped = 1;
        double maxDropped = 0;
        for (EchoClient c : clients) {
            Histogram h = c.openLoadLatency();
            PhaseCounts counts = c.counts(MessageFormat.MEASURED_TAG);
            double p99 = h.getValueAtPercentile(99) / 1000.0;
            double dropped = counts.intendedMessages() == 0 ? 0
                    : (double) counts.droppedMessages() / counts.intendedMessages();
            fewest = Math.min(fewest, h.getTotalCount());
            minP99 = Math.min(minP99, p99);
            maxP99 = Math.max(maxP99, p99);
            minDropped = Math.min(minDropped, dropped);
            maxDropped = Math.max(maxDropped, dropped);
        }
        return new OpenLoad.ClientSpread(clients.size(), fewest, minP99, maxP99, minDropped, maxDropped);
    }

    /**
     * Why a repetition that validated every echo still cannot stand for its spec: a client starved (under a tenth of
     * the mean: "unfair"), or a message that waited over a quarter of the phase ("stalled"); null when neither.
     */
    private Failure unfairness(long[] perClient, Fairness fairness, Latency latency) {
        double mean = (double) Arrays.stream(perClient).sum() / perClient.length;
        for (int i = 0; i < perClient.length; i++) {
            long done = perClient[i];
            if (done < mean / 10) {
                return new Failure.Unfair(null, i, done, mean, fairness.jainIndex());
            }
        }
        double quarterUs = spec.seconds() * 1e6 / 4;
        if (latency.maxUs() > quarterUs) {
            return new Failure.Stalled(latency.maxUs(), spec.seconds());
        }
        return null;
    }

    /** The p99 of the clients put in group {@code same} (see {@link #measure}), µs; null without such a group. */
    private static Double groupP99(TimelineRecording.Result timeline, boolean same, boolean batchRtt) {
        List<Histogram> group = timeline.rttByRecorder().entrySet().stream()
                .filter(e -> e.getKey() instanceof GroupShare g && g.group().equals(same))
                .map(Map.Entry::getValue).toList();
        if (group.isEmpty()) {
            return null;
        }
        Latency l = LatencyHistograms.latency(batchRtt ? LatencyMode.BATCH : LatencyMode.MESSAGE,
                LatencyHistograms.merged(group));
        return l.observations() > 0 ? l.p99Us() : null;
    }

    private PhaseCounts sum(byte tag) {
        PhaseCounts total = PhaseCounts.NONE;
        for (EchoClient c : clients) {
            total = total.plus(c.counts(tag));
        }
        return total;
    }

    private ErrorCounts errors(PhaseCounts c, byte tag, boolean drainTimedOut) {
        return new ErrorCounts(c.contentErrors() + serverStats.contentErrors(tag), c.orderErrors(),
                c.unexpectedMessages(), c.disconnectErrors(), c.lostMessages(), c.unfinishedMessages(),
                c.sendFailures(), c.exceptions() + serverStats.exceptions(tag),
                drainTimedOut ? 1 : 0);
    }

    /** The first error a client met in the phase, else the servers' first; null when none. */
    private String firstError(PhaseCounts c) {
        return c.firstError() != null ? c.firstError() : serverStats.firstError();
    }

    /**
     * An exception with its causes: a provider may say only "General OpenSslEngine problem" on top and name the
     * refused certificate beneath.
     */
    static String withCauses(Throwable e) {
        StringBuilder b = new StringBuilder(String.valueOf(e));
        Throwable seen = e;
        for (Throwable c = e.getCause(); c != null && c != seen; seen = c, c = c.getCause()) {
            b.append("; caused by ").append(c);
        }
        return b.toString();
    }
}
