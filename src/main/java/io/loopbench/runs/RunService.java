package io.loopbench.runs;

import io.loopbench.engine.Environment;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.InvalidSpecException;
import io.loopbench.engine.ProgressListener;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.RunSpec;
import io.loopbench.engine.Transport;
import io.loopbench.engine.Transports;
import io.loopbench.engine.Violation;
import io.loopbench.jobs.JobQueue;
import io.loopbench.system.SystemInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import tools.jackson.databind.ObjectMapper;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Accepts runs and queues them on the {@link JobQueue}, whose one runner thread executes every measurement in
 * arrival order, so that measurements never overlap. Each repetition runs in a forked worker JVM or in-process. Every state change is
 * written to the {@link RunStore} before listeners (SSE, metrics) and callers hear of it. On start, runs found
 * {@code running} are marked {@code interrupted} and {@code queued} ones are queued again.
 *
 * <p>Thread-safety: state transitions take this object's lock; the runner thread owns the running measurement,
 * which other threads reach only through the volatile cancellation flag and {@link RunControl}.
 */
public class RunService implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RunService.class);
    /** Seconds a repetition spends outside its phases (JVM start, set-up, drains, teardown), for estimates. */
    static final double FORKED_OVERHEAD_SECONDS = 1.5;
    static final double IN_PROCESS_OVERHEAD_SECONDS = 0.5;

    private static final Pattern PROGRESS_LINE = Pattern.compile("\\[\\d+/\\d+] (warmup|measured) ");

    private final RunStore store;
    private final RunsProperties properties;
    private final List<RunListener> listeners;
    private final ForkedWorker worker;
    private final SystemInfo system = SystemInfo.current();
    private final JobQueue jobs;

    private volatile boolean running;
    /** The run the runner executes now, and how to stop it. */
    private volatile String currentId;
    private volatile boolean currentCancelled;
    private volatile RunControl currentControl;

    public RunService(RunStore store, RunsProperties properties, ObjectMapper json, List<RunListener> listeners,
                      JobQueue jobs) {
        this.store = store;
        this.jobs = jobs;
        this.properties = properties;
        this.listeners = List.copyOf(listeners);
        this.worker = new ForkedWorker(json, properties.worker().jvmOptions(), properties.worker().graceSeconds());
    }

    public SystemInfo system() {
        return system;
    }

    public RunStore store() {
        return store;
    }

    /**
     * Validates and queues a run.
     *
     * @throws InvalidSpecException   listing every violated rule and limit; nothing is stored
     * @throws RunExceptions.QueueFull when the queue is full; nothing is stored
     */
    public synchronized RunRecord submit(RunSpec spec, Isolation isolation) {
        List<Violation> violations = violations(spec);
        if (!violations.isEmpty()) {
            throw new InvalidSpecException(violations);
        }
        RunRecord r = RunRecord.queued(UUID.randomUUID().toString(), spec, isolation, estimate(spec, isolation),
                Instant.now(), system);
        // queued before it is stored, both under this lock, which execute() takes before it reads the record
        if (!jobs.offer(job(r))) {
            throw new RunExceptions.QueueFull(jobs.capacity(), jobs.retryAfterSeconds());
        }
        store.save(r);
        publish(r);
        return r;
    }

    /** The spec's own rules, this service's limits and whether its transport loads here. */
    public List<Violation> violations(RunSpec spec) {
        List<Violation> v = new ArrayList<>(spec.violations());
        RunsProperties.Limits limits = properties.limits();
        if (spec.phaseSeconds() > limits.maxSecondsPerRepetition()) {
            v.add(new Violation("warmupSeconds+seconds", String.valueOf(spec.phaseSeconds()),
                    "at most " + fmt(limits.maxSecondsPerRepetition())
                            + " (limit loopbench.limits.max-seconds-per-repetition)"));
        }
        if (spec.repetitions() > limits.maxRepetitions()) {
            v.add(new Violation("repetitions", String.valueOf(spec.repetitions()),
                    "at most " + limits.maxRepetitions() + " (limit loopbench.limits.max-repetitions)"));
        }
        if (spec.clients() > limits.maxClients()) {
            v.add(new Violation("clients", String.valueOf(spec.clients()),
                    "at most " + limits.maxClients() + " (limit loopbench.limits.max-clients)"));
        }
        if (!Transports.isAvailable(spec.transport())) {
            v.add(new Violation("transport", spec.transport().label(), "a transport that loads here ("
                    + spec.transport().label() + ": " + Transports.unavailabilityCause(spec.transport()) + ")"));
        }
        return v;
    }

    public RunRecord get(String id) {
        return store.find(id).orElseThrow(() -> new RunExceptions.NotFound(id));
    }

    /**
     * Cancels a queued run at once, or a running one within 5 s (its finished repetitions are kept).
     *
     * @return the run as it is when the call returns
     */
    public RunRecord cancel(String id) {
        synchronized (this) {
            RunRecord r = get(id);
            if (r.status().isFinished()) {
                throw new RunExceptions.Conflict("run " + id + " is already " + r.status().label());
            }
            if (r.status() == RunStatus.QUEUED && jobs.remove(id)) {
                RunRecord cancelled = r.finished(RunStatus.CANCELLED, Instant.now(), null, "cancelled while queued");
                store.save(cancelled);
                publish(cancelled);
                return cancelled;
            }
            if (id.equals(currentId)) {
                currentCancelled = true;
                RunControl control = currentControl;
                if (control != null) {
                    control.cancel();
                }
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!get(id).status().isFinished() && System.nanoTime() < deadline) {
            sleep(20);
        }
        return get(id);
    }

    /** Removes a finished run's record. */
    public synchronized void delete(String id) {
        RunRecord r = get(id);
        if (!r.status().isFinished()) {
            throw new RunExceptions.Conflict("run " + id + " is " + r.status().label()
                    + "; cancel it before deleting it");
        }
        store.delete(id);
    }

    // ---- lifecycle ----

    @Override
    public synchronized void start() {
        List<RunRecord> requeue = new ArrayList<>();
        for (RunRecord r : store.all()) {
            if (r.status() == RunStatus.RUNNING) {
                RunRecord interrupted = r.finished(RunStatus.INTERRUPTED, Instant.now(), null,
                        "the service stopped while this run was running; " + r.repetitions().size()
                                + " repetition(s) had finished");
                store.save(interrupted);
                log.warn("Run {} was running when the service stopped: marked interrupted", r.id());
            } else if (r.status() == RunStatus.QUEUED) {
                requeue.add(r);
            }
        }
        running = true;
        requeue.sort(Comparator.comparing(RunRecord::createdAt));
        for (RunRecord r : requeue) {
            if (!jobs.offer(job(r))) {
                log.error("Run {} could not be queued again: the queue is full", r.id());
            }
        }
    }

    private JobQueue.Job job(RunRecord r) {
        String id = r.id();
        double estimate = r.estimatedSeconds();
        return new JobQueue.Job() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public double estimatedSeconds() {
                return estimate;
            }

            @Override
            public void run() {
                execute(id);
            }
        };
    }

    /** Stops the running measurement (it ends interrupted); the job queue, stopped after, joins its thread. */
    @Override
    public void stop() {
        synchronized (this) {
            running = false;
            currentCancelled = true;
            RunControl control = currentControl;
            if (control != null) {
                control.cancel();
            }
        }
        String id = currentId;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (id != null && id.equals(currentId) && System.nanoTime() < deadline) {
            sleep(20);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void execute(String id) {
        RunRecord r;
        RunControl control = new RunControl();
        synchronized (this) {
            r = store.find(id).orElse(null);
            if (r == null || r.status() != RunStatus.QUEUED || !running) {
                return;
            }
            currentId = id;
            currentCancelled = false;
            currentControl = control;
            r = r.started(Instant.now(), Transports.resolve(r.spec().transport()));
            store.save(r);
        }
        publish(r);
        String failure = null;
        try {
            for (int i = 1; i <= r.spec().repetitions() && !stopRequested(); i++) {
                progress(id, i, "starting");
                ForkedWorker.Outcome done = r.isolation() == Isolation.FORKED
                        ? forked(r, i) : inProcess(r, i, control);
                if (done == null || stopRequested()) {
                    break; // cancelled or stopping: an unfinished repetition is not kept
                }
                update(id, x -> x.withRepetition(done.repetition(), done.environment(), done.stderr()));
            }
        } catch (RuntimeException e) {
            log.error("Run {} failed unexpectedly", id, e);
            failure = "internal error: " + e;
        }
        finish(id, failure);
    }

    private ForkedWorker.Outcome forked(RunRecord r, int index) {
        return worker.run(r.spec(), index, r.transport(),
                line -> phaseFrom(line).ifPresent(phase -> progress(r.id(), index, phase)), this::stopRequested);
    }

    /** Runs one repetition in this JVM; null when it was cancelled. */
    private ForkedWorker.Outcome inProcess(RunRecord r, int index, RunControl control) {
        try {
            RepetitionResult result = Measurement.of(r.spec()).control(control).progress(new ProgressListener() {
                @Override
                public void phaseStarted(int repetition, String phase, double seconds) {
                    progress(r.id(), index, phase);
                }
            }).runRepetition(index);
            return new ForkedWorker.Outcome(result, Environment.current(), null);
        } catch (CancellationException e) {
            return null;
        }
    }

    /** Judges the run and stores its outcome; {@code failure} is an error that stopped it early, if any. */
    private void finish(String id, String failure) {
        RunRecord done;
        synchronized (this) {
            RunRecord r = get(id);
            boolean cancelled = currentCancelled;
            MeasurementResult m = Measurement.result(r.spec(), r.transport(), r.repetitions(), cancelled);
            RunStatus status;
            String error = m.error();
            if (cancelled && !running) {
                status = RunStatus.INTERRUPTED;
                error = "the service stopped while this run was running; " + r.repetitions().size()
                        + " repetition(s) had finished";
            } else if (cancelled) {
                status = RunStatus.CANCELLED;
            } else if (failure != null) {
                status = RunStatus.FAILED;
                error = failure;
            } else {
                status = m.ok() ? RunStatus.SUCCEEDED : RunStatus.FAILED;
            }
            done = r.finished(status, Instant.now(), m.summary(), error);
            store.save(done);
            currentId = null;
            currentControl = null;
        }
        publish(done);
    }

    private boolean stopRequested() {
        return currentCancelled || !running;
    }

    private RunRecord progress(String id, int repetition, String phase) {
        return update(id, x -> x.status() != RunStatus.RUNNING ? x
                : x.withProgress(new RunProgress(repetition, x.spec().repetitions(), phase, 0, 0)));
    }

    /** Read-modify-write of a stored run under the lock; listeners hear of it after the write. */
    private RunRecord update(String id, UnaryOperator<RunRecord> change) {
        RunRecord r;
        synchronized (this) {
            r = change.apply(get(id));
            store.save(r);
        }
        publish(r);
        return r;
    }

    private void publish(RunRecord r) {
        for (RunListener l : listeners) {
            try {
                l.changed(r.asOf(Instant.now()));
            } catch (RuntimeException e) {
                log.warn("Run listener {} failed", l, e);
            }
        }
    }

    /** The phase named by a worker's progress line ({@code [1/1] warmup 1.00 s …}), if it names one. */
    public static Optional<String> phaseFrom(String line) {
        Matcher m = PROGRESS_LINE.matcher(line);
        return m.lookingAt() ? Optional.of(m.group(1)) : Optional.empty();
    }

    public static double estimate(RunSpec spec, Isolation isolation) {
        double overhead = isolation == Isolation.FORKED ? FORKED_OVERHEAD_SECONDS : IN_PROCESS_OVERHEAD_SECONDS;
        return spec.repetitions() * (spec.phaseSeconds() + overhead);
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%s", d);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
