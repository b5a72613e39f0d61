package io.loopbench.cluster;

import io.loopbench.engine.MeasuredPhaseGate;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.ProgressListener;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.StandingEchoServer;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.process.JvmEvents;
import io.loopbench.engine.profile.CpuProfiler;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.Profiling;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.timeline.TimelineInterval;
import org.HdrHistogram.AbstractHistogram;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An agent's share of one repetition across hosts: the standing echo server it runs, the clients it runs against
 * another agent's (or its own) server, held after their warm-up until the start barrier releases them, or both. It
 * stops everything when the coordinator says the repetition ended, and when the coordinator is lost.
 *
 * <p>Threads: JGroups' threads serve, start clients, begin the phase, take the part and end; the coordinator-lost
 * thread ends; an agent's prepare thread waits for the clients' warm-up ({@link Preparing#awaitHeld}); the clients'
 * repetition runs on a platform thread of its own. What the repetition holds is one immutable {@link Work} swapped
 * atomically (its phase start, set once, is an atomic in it), so that {@link #end} stops whatever is there, from any
 * thread, and a waiter sees that its work was ended by finding another in its place.
 */
final class AgentWork {

    /** How long the clients may be held after their warm-up: the coordinator starts them well within this. */
    static final Duration MAX_HOLD = Duration.ofSeconds(60);
    /** How long the set-up (connecting every client) may take beyond the warm-up. */
    static final Duration SET_UP = Duration.ofSeconds(30);
    /** How long {@link #end} waits for the clients' repetition to close its connections after cancelling it. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /**
     * One repetition's share here.
     *
     * @param server  the standing echo server, or null
     * @param control the clients' control, or null when no clients run here
     * @param gate    where the clients wait for the start
     * @param result  the clients' repetition, when it ends
     * @param clients how many clients
     * @param phase   this process's readings at the instant the measured phase began ({@link #beginPhase}), unset
     *                before: the server's figures when no clients run here
     * @param span    the clients' measured phase's start and stop ({@link System#nanoTime()}), set by their
     *                repetition's thread before its result completes; unset until then
     * @param profiling a server without clients here, with its spec's {@code profiling} {@code cpu}: its process's
     *                  sampling, from the server's start (so that the profiler's start costs fall before the phase),
     *                  restarted at the phase's start, until its part is taken or the work stops; clients' repetitions
     *                  profile themselves, the whole process, so clients started here end it
     */
    private record Work(StandingEchoServer server, RunControl control, MeasuredPhaseGate gate,
                        CompletableFuture<RepetitionResult> result, int clients, AtomicReference<PhaseStart> phase,
                        List<String> intervalRtts, AtomicReference<long[]> span,
                        AtomicReference<CpuProfiler.Session> profiling) {

        static final Work NONE = new Work(null, null, null, null, 0, new AtomicReference<>(), List.of(),
                new AtomicReference<>(), new AtomicReference<>());
    }

    /** Told of each interval of the clients' timeline as it closes, on the repetition's thread. */
    interface Intervals {
        /**
         * @param measuredIndex the interval's index in the measured phase; -1 in the warm-up
         * @param rtt           its RTTs, in {@code LatencyHistograms.encode}'s form
         */
        void closed(int measuredIndex, TimelineInterval interval, String rtt);
    }

    private final String member;
    private final Intervals intervals;
    private final AtomicReference<Work> current = new AtomicReference<>(Work.NONE);

    AgentWork(String member) {
        this(member, (index, interval, rtt) -> { });
    }

    AgentWork(String member, Intervals intervals) {
        this.member = member;
        this.intervals = intervals;
    }

    /** Whether a server or clients run here. */
    boolean busy() {
        Work w = current.get();
        return w.server != null || w.control != null;
    }

    /**
     * Starts a standing echo server for the spec's protocol on {@code bindAddress}, port chosen by the system,
     * checking each message as the spec's clients send it; ends whatever an earlier repetition left first.
     */
    Target serve(RunSpec spec, String bindAddress) throws Exception {
        end();
        StandingEchoServer.Config config = new StandingEchoServer.Config(spec.protocol(),
                InetAddress.getByName(bindAddress), 0, spec.ioThreads(), spec.transport(), spec.work(),
                spec.payloadBytes(), spec.certsDirectory(), spec.tlsProvider());
        if (!config.violations().isEmpty()) {
            throw new InvalidSpecException(config.violations());
        }
        StandingEchoServer server = StandingEchoServer.start(config);
        // the flight recorder takes a while to start: by the measured phase it sees the server's JIT
        JvmEvents.startInBackground();
        current.set(new Work(server, null, null, null, 0, new AtomicReference<>(), List.of(), new AtomicReference<>(),
                new AtomicReference<>(spec.profiling() == Profiling.CPU
                        ? CpuProfiler.start(CpuProfiler.DEFAULT_INTERVAL_MICROS) : null)));
        return new Target(bindAddress, server.port());
    }

    /**
     * Starts the spec's clients (against its target), and returns once they have warmed up and are held before the
     * measured phase: {@link #start}, then {@link Preparing#awaitHeld}.
     *
     * @throws IllegalStateException when their set-up or warm-up failed, did not finish in time, or was ended (they
     *                               are then stopped)
     */
    void prepare(RunSpec spec) throws InterruptedException {
        start(spec).awaitHeld();
    }

    /**
     * Starts the spec's clients (against its target) and returns at once, the clients installed as this repetition's:
     * called on the thread that received the request, so that an end delivered after it finds them and stops them,
     * whatever stage their warm-up is at.
     *
     * @throws IllegalStateException when clients still run here
     */
    Preparing start(RunSpec spec) {
        Work before = current.get();
        if (before.control != null && !before.result.isDone()) {
            throw new IllegalStateException("agent " + member + " already runs clients");
        }
        // finished clients whose end never came (the coordinator's word lost) are replaced; a server stays
        RunControl control = new RunControl();
        MeasuredPhaseGate gate = new MeasuredPhaseGate(MAX_HOLD);
        // written by the repetition's thread, read once its result is complete
        List<String> intervalRtts = new ArrayList<>();
        AtomicReference<long[]> span = new AtomicReference<>();
        Measurement measurement = Measurement.of(spec).control(control.holdMeasuredPhase(gate))
                .progress(new ProgressListener() {
                    @Override
                    public void intervalRecorded(int repetition, TimelineInterval interval, AbstractHistogram rtt) {
                        // encoded and told in the warm-up too, so that the measured phase compiles no new path
                        String encoded = LatencyHistograms.encode(rtt);
                        int index = -1;
                        if (interval.phase().equals(TimelineInterval.MEASURED)) {
                            index = intervalRtts.size();
                            intervalRtts.add(encoded);
                        }
                        intervals.closed(index, interval, encoded);
                    }

                    @Override
                    public void measuredPhaseRan(int repetition, long startNanos, long stopNanos) {
                        span.set(new long[] {startNanos, stopNanos});
                    }
                });
        CompletableFuture<RepetitionResult> result = new CompletableFuture<>();
        Work work = new Work(before.server, control, gate, result, spec.clients(), new AtomicReference<>(),
                intervalRtts, span, new AtomicReference<>());
        if (!current.compareAndSet(before, work)) {
            throw new IllegalStateException("agent " + member + " was told to end while it prepared");
        }
        CpuProfiler.Session serverProfiling = before.profiling.getAndSet(null);
        if (serverProfiling != null) {
            serverProfiling.close(); // the clients' repetition profiles this process, the server's end included
        }
        Thread.ofPlatform().name("loopbench-agent-clients").start(() -> {
            try {
                result.complete(measurement.runRepetition(1));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return new Preparing(work, System.nanoTime() + SET_UP.toNanos() + (long) (spec.warmupLimitSeconds() * 1e9));
    }

    /** Clients {@link #start started} here, until they are held before their measured phase. */
    final class Preparing {

        private final Work work;
        private final long deadline;

        private Preparing(Work work, long deadline) {
            this.work = work;
            this.deadline = deadline;
        }

        /**
         * Returns once the clients are warmed up and held; looks every 20 ms whether they failed, ran out of time or
         * were ended ({@link #end}: their warm-up, cancelled, stops within the engine's 20 ms poll).
         *
         * @throws IllegalStateException when they failed, did not warm up in time (then stopped) or were ended
         */
        void awaitHeld() throws InterruptedException {
            while (!work.gate.awaitArrival(Duration.ofMillis(20))) {
                if (current.get() != work) {
                    throw new IllegalStateException("its clients were stopped before the measured phase: the "
                            + "repetition ended");
                }
                if (work.result.isDone()) {
                    RepetitionResult r = work.result.isCompletedExceptionally() ? null : work.result.getNow(null);
                    throw new IllegalStateException(r != null ? "its clients failed before the measured phase: "
                            + r.error() : "its clients stopped before the measured phase");
                }
                if (System.nanoTime() - deadline > 0) {
                    // only these clients' repetition: a later one's (this one ended meanwhile) is not this waiter's
                    if (current.compareAndSet(work, Work.NONE)) {
                        stop(work);
                    }
                    throw new IllegalStateException("its clients were not warmed up within " + SET_UP.toSeconds()
                            + " s plus the warm-up");
                }
            }
        }
    }

    /**
     * The start barrier's action (it returns at once): marks this process's readings at the measured phase's start,
     * from which a server without clients here reports its figures, and lets held clients begin their measured phase.
     *
     * @throws IllegalStateException when nothing runs here
     */
    void beginPhase() {
        Work w = current.get();
        if (w == Work.NONE) {
            throw new IllegalStateException("agent " + member + " runs no server or clients to start");
        }
        CpuProfiler.Session profiling = w.profiling.get();
        if (w.phase.compareAndSet(null, PhaseStart.now()) && profiling != null && profiling.refused() == null) {
            try {
                profiling.restart();
            } catch (IllegalStateException e) {
                // released: the part's stop says why there is no profile
            }
        }
        if (w.gate != null) {
            w.gate.release();
        }
    }

    /**
     * This agent's part of the measured phase: its clients', once they finished it (waiting at most
     * {@code timeout}); with a server and no clients here, the server's: this process's figures from the phase's
     * start to now.
     */
    AgentPart part(Duration timeout) {
        Work w = current.get();
        PhaseStart started = w.phase.get();
        if (w.result == null && w.server != null && started != null) {
            return AgentPart.ofServer(member, started, w.profiling.getAndSet(null));
        }
        if (w.result == null) {
            throw new IllegalStateException("agent " + member + " has no part to send");
        }
        RepetitionResult r;
        try {
            r = w.result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while its clients finished", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("its clients did not finish within " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw new IllegalStateException("its clients stopped: " + e.getCause(), e.getCause());
        } catch (CancellationException e) {
            throw new IllegalStateException("its clients were stopped before the end of their measured phase");
        }
        // a repetition that failed before its measured phase never set it
        long[] ran = w.span.get();
        PhaseSpan span = started == null || ran == null ? null
                : new PhaseSpan(ran[0] - started.nanos(), ran[1] - started.nanos());
        return AgentPart.of(member, w.clients, r, w.intervalRtts, span);
    }

    /**
     * Stops whatever runs here: cancels the clients (waiting up to {@link #CLOSE_WAIT} for them to close their
     * connections) and closes the server. Safe to call when nothing runs, and from any thread.
     *
     * @return what was running, in words, or null when nothing was
     */
    String end() {
        return stop(current.getAndSet(Work.NONE));
    }

    /** Stops a work no longer current (so that nothing else stops it too); what it was, in words, or null. */
    private static String stop(Work w) {
        if (w.control != null) {
            w.control.cancel();
            try {
                w.result.get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (CancellationException | ExecutionException | TimeoutException e) {
                // cancelled, the repetition ends with a CancellationException (which the future throws as it is); or
                // it is still closing, which it finishes on its own thread
            }
        }
        CpuProfiler.Session profiling = w.profiling.getAndSet(null);
        if (profiling != null) {
            profiling.close(); // not asked for: dropped, so that the next phase here can be profiled
        }
        if (w.server != null) {
            w.server.close();
        }
        if (w.server == null && w.control == null) {
            return null;
        }
        return (w.server != null ? "an echo server" : "") + (w.server != null && w.control != null ? " and " : "")
                + (w.control != null ? w.clients + " clients" : "");
    }
}
