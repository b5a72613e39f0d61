package io.loopbench.engine;

import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.server.ServerFault;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * The engine's entry point: runs a {@link RunSpec}'s repetitions one after another, each with its own loops, and
 * summarises them. Configure, then call {@link #run()} once, from one thread; {@link RunControl#cancel()} may be
 * called from any other.
 *
 * <pre>{@code
 * MeasurementResult r = Measurement.of(RunSpec.builder().protocol(Protocol.UDP).build()).run();
 * }</pre>
 */
public final class Measurement {

    private final RunSpec spec;
    private final Transport transport;
    private ProgressListener progress = ProgressListener.NONE;
    private RunControl control = new RunControl();
    private ServerFault serverFault;
    private boolean jvmEvents = true;

    private Measurement(RunSpec spec) {
        this.spec = spec;
        this.transport = Transports.resolve(spec);
    }

    /**
     * A measurement of a valid spec whose transport loads here and, for virtual threads, whose JVM has ioThreads
     * carriers ({@link VirtualThreads}).
     *
     * @throws InvalidSpecException listing every violated rule
     */
    public static Measurement of(RunSpec spec) {
        List<Violation> violations = new ArrayList<>(spec.violations());
        if (!Transports.isAvailable(spec.transport())) {
            violations.add(new Violation("transport", spec.transport().label(),
                    "a transport that loads here: " + availableTransports() + " ("
                            + spec.transport().label() + ": " + Transports.unavailabilityCause(spec.transport()) + ")"));
        }
        VirtualThreads.violation(spec).ifPresent(violations::add);
        if (spec.datagramsPerRead() > 1 && Transports.resolve(spec) != Transport.EPOLL) {
            violations.add(new Violation("datagramsPerRead", String.valueOf(spec.datagramsPerRead()),
                    "1 here: batched reads (recvmmsg) need the epoll transport, and " + spec.transport().label()
                            + " is " + Transports.resolve(spec).label() + " on this machine"));
        }
        if (!violations.isEmpty()) {
            throw new InvalidSpecException(violations);
        }
        return new Measurement(spec);
    }

    public Measurement progress(ProgressListener listener) {
        this.progress = listener;
        return this;
    }

    public Measurement control(RunControl runControl) {
        this.control = runControl;
        return this;
    }

    /** Injects a server fault; for tests and fault drills only. */
    public Measurement serverFault(ServerFault fault) {
        this.serverFault = fault;
        return this;
    }

    /**
     * Measures without the flight recorder's JIT and GC events, so that a repetition does not wait up to a second for
     * their flush after its measured phase: {@code jit} and {@code warmup.jit} are null (not observed, so no JIT
     * warning either) and the timeline's compilation and GC marks are zeros. For tests that are not about the JIT or
     * the collector only; every run of the service and the CLI watches them.
     */
    public Measurement withoutJvmEvents() {
        this.jvmEvents = false;
        return this;
    }

    /** The concrete transport this measurement uses. */
    public Transport transport() {
        return transport;
    }

    /** Runs one repetition (1-based index), e.g. in a forked worker that runs exactly one. */
    public RepetitionResult runRepetition(int index) {
        RepetitionResult r = new Repetition(spec, index, transport, serverFault, progress, control, jvmEvents).run();
        progress.repetitionFinished(r);
        return r;
    }

    /** Runs every repetition; stops early, keeping finished repetitions, when cancelled. */
    public MeasurementResult run() {
        List<RepetitionResult> done = new ArrayList<>();
        boolean cancelled = false;
        try {
            for (int i = 1; i <= spec.repetitions(); i++) {
                control.throwIfCancelled();
                done.add(runRepetition(i));
            }
        } catch (CancellationException e) {
            cancelled = true;
        }
        return result(spec, transport, done, cancelled);
    }

    /** Judges and summarises repetitions, wherever they ran (here, or in forked workers). */
    public static MeasurementResult result(RunSpec spec, Transport transport, List<RepetitionResult> reps,
                                           boolean cancelled) {
        String error = null;
        for (RepetitionResult r : reps) {
            if (!r.ok()) {
                error = "repetition " + r.repetition() + " failed: " + r.error();
                break;
            }
        }
        if (error == null && cancelled) {
            error = "cancelled after " + reps.size() + " of " + spec.repetitions() + " repetitions";
        } else if (error == null && reps.size() < spec.repetitions()) {
            error = "only " + reps.size() + " of " + spec.repetitions() + " repetitions ran";
        }
        boolean ok = error == null;
        Summary summary = ok ? Summary.of(reps) : null;
        return new MeasurementResult(spec, transport, Environment.current(), List.copyOf(reps), summary, ok, error,
                cancelled);
    }

    private static String availableTransports() {
        return String.join(", ", Transports.availability().entrySet().stream()
                .filter(e -> e.getValue() == null).map(java.util.Map.Entry::getKey).toList());
    }
}
