package io.loopbench.cluster;

import io.loopbench.engine.ErrorCounts;
import io.loopbench.engine.MeasuredPhaseGate;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.StandingEchoServer;
import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;

import java.net.InetAddress;
import java.time.Duration;
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
 * <p>Threads: JGroups' threads serve, prepare, release, take the part and end; the coordinator-lost thread ends; the
 * clients' repetition runs on a platform thread of its own. What the repetition holds is one immutable {@link Work}
 * swapped atomically, so that {@link #end} stops whatever is there, from any thread.
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
     */
    private record Work(StandingEchoServer server, RunControl control, MeasuredPhaseGate gate,
                        CompletableFuture<RepetitionResult> result, int clients) {

        static final Work NONE = new Work(null, null, null, null, 0);
    }

    private final String member;
    private final AtomicReference<Work> current = new AtomicReference<>(Work.NONE);

    AgentWork(String member) {
        this.member = member;
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
        current.set(new Work(server, null, null, null, 0));
        return new Target(bindAddress, server.port());
    }

    /**
     * Starts the spec's clients (against its target), and returns once they have warmed up and are held before the
     * measured phase.
     *
     * @throws IllegalStateException when their set-up or warm-up failed, or did not finish in time (they are then
     *                               stopped)
     */
    void prepare(RunSpec spec) throws InterruptedException {
        Work before = current.get();
        if (before.control != null && !before.result.isDone()) {
            throw new IllegalStateException("agent " + member + " already runs clients");
        }
        // finished clients whose end never came (the coordinator's word lost) are replaced; a server stays
        RunControl control = new RunControl();
        MeasuredPhaseGate gate = new MeasuredPhaseGate(MAX_HOLD);
        Measurement measurement = Measurement.of(spec).control(control.holdMeasuredPhase(gate));
        CompletableFuture<RepetitionResult> result = new CompletableFuture<>();
        if (!current.compareAndSet(before, new Work(before.server, control, gate, result, spec.clients()))) {
            throw new IllegalStateException("agent " + member + " was told to end while it prepared");
        }
        Thread.ofPlatform().name("loopbench-agent-clients").start(() -> {
            try {
                result.complete(measurement.runRepetition(1));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        long deadline = System.nanoTime() + SET_UP.toNanos() + (long) (spec.warmupLimitSeconds() * 1e9);
        while (!gate.awaitArrival(Duration.ofMillis(20))) {
            if (result.isDone()) {
                RepetitionResult r = result.getNow(null);
                throw new IllegalStateException(r != null ? "its clients failed before the measured phase: "
                        + r.error() : "its clients stopped before the measured phase");
            }
            if (System.nanoTime() - deadline > 0) {
                end();
                throw new IllegalStateException("its clients were not warmed up within " + SET_UP.toSeconds()
                        + " s plus the warm-up");
            }
        }
    }

    /** Lets the held clients begin their measured phase (the start barrier's action: it returns at once). */
    void release() {
        MeasuredPhaseGate gate = current.get().gate;
        if (gate == null) {
            throw new IllegalStateException("agent " + member + " has no clients waiting to start");
        }
        gate.release();
    }

    /** This agent's part of the measured phase, once its clients finished it (waiting at most {@code timeout}). */
    AgentPart part(Duration timeout) {
        Work w = current.get();
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
        return part(member, w.clients, r);
    }

    /** A repetition's result as its part: the counters and the encoded histogram (an empty one without figures). */
    static AgentPart part(String member, int clients, RepetitionResult r) {
        ErrorCounts e = r.errors();
        PhaseCounts counts = e == null ? PhaseCounts.NONE : new PhaseCounts(r.messagesSent(), r.messages(),
                e.contentErrors(), e.orderErrors(), e.unexpectedMessages(), e.disconnectErrors(), e.lostMessages(),
                e.unfinishedMessages(), e.clientSendFailures(), e.exceptions() + e.drainTimeouts(),
                r.openLoad() == null ? 0 : r.openLoad().intendedMessages(),
                r.openLoad() == null ? 0 : r.openLoad().lateMessages(),
                r.openLoad() == null ? 0 : r.openLoad().droppedMessages(), null);
        String histogram = r.latencyHistogram() != null ? r.latencyHistogram()
                : LatencyHistograms.encode(LatencyHistograms.create());
        return new AgentPart(member, clients, r.elapsedSeconds() == null ? 0 : r.elapsedSeconds(), counts, histogram,
                r.ok() ? null : r.error(), r.cpu(), r.gc(), r.memory());
    }

    /**
     * Stops whatever runs here: cancels the clients (waiting up to {@link #CLOSE_WAIT} for them to close their
     * connections) and closes the server. Safe to call when nothing runs, and from any thread.
     *
     * @return what was running, in words, or null when nothing was
     */
    String end() {
        Work w = current.getAndSet(Work.NONE);
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
