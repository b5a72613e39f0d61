package io.loopbench.engine;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.EchoPair;
import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.process.JvmEvents;
import io.loopbench.engine.process.MemoryUsage;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.profile.CpuProfiler;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.offload.OffloadGauge;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerStats;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.WindowMode;
import io.loopbench.engine.timeline.Timeline;
import io.loopbench.engine.timeline.TimelineRecording;

import java.util.ArrayList;
import java.util.List;

/**
 * What one repetition's stages share: the open echo pair they measure, and the result as the stages build it, one
 * part each. Owned by the repetition's thread: not thread-safe, and needs not be.
 */
final class RepetitionState {

    final RunSpec spec;
    final int index;
    final Transport transport;
    final EchoPair pair;
    final EchoProtocol protocol;
    final List<EchoClient> clients;
    final PhaseRunner phases;
    final ServerStats serverStats;
    /** What the server's work did; null where it has neither work nor an offload. */
    final OffloadGauge offloadGauge;
    final ProgressListener progress;
    final RunControl control;
    /** Whether the flight recorder's JIT and GC events are watched ({@link Measurement#withoutJvmEvents()}). */
    final boolean jvmEvents;
    /** The CPU profile's sampling from the warm-up's start (see {@link CpuProfiler.Session#restart}); or null. */
    final CpuProfiler.Session profiling;
    /** Whether the clients' RTTs are kept apart by group: same thread as their server end, or not. */
    final List<Boolean> sameThread;

    /** The warm-up, once run; null without one. */
    WarmupPhase warmup;
    /** The measured phase, once run. */
    MeasuredPhase measured;
    /** The monitor of the JVM's events, once the measured phase began; null when not watched. */
    JvmEvents events;
    /** Why there is no CPU profile (set by the stage that failed to sample), or null. */
    String noProfile;

    Throughput throughput = Throughput.NONE;
    RoundTripTimes rtt = RoundTripTimes.NONE;
    ResourceUse resources = ResourceUse.NONE;
    JvmActivity jvm = JvmActivity.NONE;
    ErrorCounts errors;
    WarmupResult warmupResult;
    Fairness fairness;
    WindowFill windowFill;
    StampGap stampGap;
    OpenLoad openLoad;
    Timeline timeline;
    CpuProfile cpuProfile;
    /** The first reason found why the repetition failed; later stages keep it. */
    Failure failure;
    final List<String> warnings = new ArrayList<>();
    final List<String> notes = new ArrayList<>();

    RepetitionState(RunSpec spec, int index, Transport transport, EchoPair pair, EchoProtocol protocol,
                    List<EchoClient> clients, ServerCheck check, ProgressListener progress, RunControl control,
                    boolean jvmEvents, CpuProfiler.Session profiling) {
        this.spec = spec;
        this.index = index;
        this.transport = transport;
        this.pair = pair;
        this.protocol = protocol;
        this.clients = clients;
        this.serverStats = check.stats();
        this.offloadGauge = check.gauge();
        this.progress = progress;
        this.control = control;
        this.jvmEvents = jvmEvents;
        this.profiling = profiling;
        this.phases = new PhaseRunner(clients, open(), control);
        this.sameThread = pair.sameThread();
        this.noProfile = profiling == null ? null : profiling.refused();
    }

    /**
     * The warm-up's outcome: its phase, its rounds' verdict, and its timeline (whose recording the measured phase's
     * continues).
     */
    record WarmupPhase(PhaseRunner.Outcome phase, WarmupRounds.Outcome rounds, TimelineRecording recording,
                       TimelineRecording.Result timeline) {
    }

    /**
     * The measured phase's outcome, its timeline, the memory read at its end, and what every client counted in it
     * (summed once, for the stages that read it).
     */
    record MeasuredPhase(PhaseRunner.Outcome phase, TimelineRecording.Result timeline, MemoryUsage memory,
                         PhaseCounts counts) {
    }

    boolean open() {
        return spec.load() == LoadModel.OPEN;
    }

    /** Whether one RTT stands for a batch: batch window mode with a window over 1. */
    boolean batchRtt() {
        return spec.windowMode() == WindowMode.BATCH && spec.window() > 1;
    }

    long timelineIntervalNanos() {
        return spec.timelineIntervalMillis() * 1_000_000L;
    }

    /** Each finished interval of a phase's timeline, to the progress listener. */
    TimelineRecording.Listener toProgress() {
        return (interval, rtt) -> progress.intervalRecorded(index, interval, rtt);
    }

    /** Sets why the repetition failed, unless an earlier stage found a reason first. */
    void fail(Failure why) {
        if (failure == null) {
            failure = why;
        }
    }

    /** What every client counted in the phase whose messages carry {@code tag}. */
    PhaseCounts sum(byte tag) {
        PhaseCounts total = PhaseCounts.NONE;
        for (EchoClient c : clients) {
            total = total.plus(c.counts(tag));
        }
        return total;
    }

    /** The phase's error counters, the clients' and the servers' together. */
    ErrorCounts errors(PhaseCounts c, byte tag, boolean drainTimedOut) {
        return new ErrorCounts(c.contentErrors() + serverStats.contentErrors(tag), c.orderErrors(),
                c.unexpectedMessages(), c.disconnectErrors(), c.lostMessages(), c.unfinishedMessages(),
                c.sendFailures(), c.exceptions() + serverStats.exceptions(tag),
                drainTimedOut ? 1 : 0);
    }

    /** The first error a client met in the phase, else the servers' first; null when none. */
    String firstError(PhaseCounts c) {
        return c.firstError() != null ? c.firstError() : serverStats.firstError();
    }

    RepetitionResult result() {
        EchoPairSetup setup = new EchoPairSetup(transport, pair.serverChannel(), pair.clientChannel(),
                pair.serverAddresses(), pair.clientAddress(), spec.target() != null, pair.threads(),
                pair.connectionsOnOneThread(), pair.tcpNoDelay(), pair.udpBuffers(), protocol.tlsSession(),
                protocol.http2Setup());
        return new RepetitionResult(index, failure == null, null, failure, setup, throughput, rtt, resources, jvm,
                new Checks(errors, warmupResult, fairness, windowFill, stampGap, warnings, notes), openLoad, timeline,
                cpuProfile);
    }
}
