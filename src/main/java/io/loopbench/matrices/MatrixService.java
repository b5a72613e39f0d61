package io.loopbench.matrices;

import io.loopbench.engine.process.Environment;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.Summary;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.spec.Violation;
import io.loopbench.jobs.JobQueue;
import io.loopbench.jobs.QueuedService;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.runs.ForkedWorker;
import io.loopbench.runs.Isolation;
import io.loopbench.runs.RunService;
import io.loopbench.jobs.RunStatus;
import io.loopbench.runs.RunsProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;

/**
 * Accepts matrices, validates every case before anything runs, and executes them on the shared {@link JobQueue}
 * (so they never overlap a run): repetitions outermost, cases rotated per repetition, the executions of a case back
 * to back in an order alternated between repetitions ({@link MatrixSpec#steps}), each (case, repetition) in its own
 * forked worker. Every finished step is stored before it is announced. On start, matrices found running
 * are marked interrupted (keeping their finished steps) and queued ones are queued again (see
 * {@link QueuedService}).
 */
public class MatrixService extends QueuedService<MatrixRecord> {

    private static final Logger log = LoggerFactory.getLogger(MatrixService.class);
    private static final String INTERRUPTED =
            "the service stopped while this matrix was running; its finished steps are kept";

    private final RunService runs;
    private final RunsProperties properties;
    private final MatrixEvents events;
    private final ForkedWorker worker;

    public MatrixService(MatrixStore store, RunService runs, RunsProperties properties, JobQueue jobs,
                         MatrixEvents events) {
        super(store, jobs, "matrix", MatrixRecord::id, MatrixRecord::status, MatrixRecord::estimatedSeconds,
                MatrixRecord::createdAt);
        this.runs = runs;
        this.properties = properties;
        this.events = events;
        this.worker = runs.worker();
    }

    public MatrixStore store() {
        return (MatrixStore) store;
    }

    /**
     * Validates every case and the estimated duration, then queues the matrix.
     *
     * @throws InvalidSpecException   listing every violated rule, each case's prefixed by the case
     * @throws RunExceptions.QueueFull when the queue is full
     */
    public MatrixRecord submit(MatrixSpec requested) {
        MatrixSpec spec = requested.effective();
        List<Violation> violations = new ArrayList<>(spec.listViolations());
        List<RunSpec> cases = violations.isEmpty() ? spec.cases() : List.of();
        Set<Violation> caseViolations = new LinkedHashSet<>();
        for (RunSpec c : cases) {
            for (Violation v : runs.violations(c, spec.isolation())) {
                caseViolations.add(v);
            }
        }
        violations.addAll(caseViolations);
        double estimate = cases.stream().mapToDouble(c -> RunService.estimate(c, spec.isolation())).sum();
        if (violations.isEmpty() && estimate > properties.limits().maxMatrixSeconds()) {
            violations.add(new Violation("estimatedSeconds", String.format(Locale.ROOT, "%.0f", estimate),
                    String.format(Locale.ROOT, "at most %.0f (limit loopbench.limits.max-matrix-seconds); this "
                            + "matrix has %d cases × %d repetitions", properties.limits().maxMatrixSeconds(),
                            cases.size(), spec.repetitions())));
        }
        if (!violations.isEmpty()) {
            throw new InvalidSpecException(violations);
        }
        MatrixRecord m = MatrixRecord.queued(UUID.randomUUID().toString(), spec, cases, estimate, Instant.now(),
                runs.system());
        enqueue(m);
        return m;
    }

    @Override
    protected MatrixRecord cancelledWhileQueued(MatrixRecord m) {
        return m.with(RunStatus.CANCELLED, null, Instant.now(), null, m.cases(), false, "cancelled while queued",
                null);
    }

    @Override
    protected WorkerProcess worker(MatrixRecord m) {
        return m.worker();
    }

    @Override
    protected MatrixRecord failed(MatrixRecord m, String error) {
        return m.with(RunStatus.FAILED, m.startedAt(), Instant.now(), null, m.cases(), false, error,
                m.workerEnvironment());
    }

    @Override
    protected MatrixRecord interrupted(MatrixRecord m) {
        return m.with(RunStatus.INTERRUPTED, m.startedAt(), Instant.now(), null, m.cases(), false, INTERRUPTED,
                m.workerEnvironment());
    }

    @Override
    protected void announce(MatrixRecord m) {
        events.changed(m.asOf(Instant.now()));
    }

    @Override
    protected void execute(String id) {
        RunControl control = new RunControl();
        MatrixRecord m = begin(id, control,
                x -> x.with(RunStatus.RUNNING, Instant.now(), null, null, x.cases(), null, null, null));
        if (m == null) {
            return;
        }
        String failure = null;
        try {
            int n = m.cases().size();
            List<int[]> steps = MatrixSpec.steps(m.cases().stream().map(MatrixRecord.Case::spec).toList(),
                    m.spec().repetitions());
            for (int s = 0; s < steps.size() && !stopRequested(); s++) {
                int caseIndex = steps.get(s)[0];
                int repetition = steps.get(s)[1];
                MatrixRecord.Progress p = new MatrixRecord.Progress(s + 1, steps.size(), caseIndex + 1, n, repetition,
                        0, 0);
                update(id, x -> x.withProgress(p));
                RunSpec spec = m.cases().get(caseIndex).spec();
                ForkedWorker.Outcome o = m.spec().isolation() == Isolation.FORKED
                        ? worker.run(spec, repetition, Transports.resolve(spec), line -> { },
                        w -> update(id, x -> x.withWorker(w)), this::stopRequested)
                        : inProcess(spec, repetition, control);
                if (o == null || stopRequested()) {
                    break;
                }
                MatrixRecord after = update(id, x -> record(x, caseIndex, o).withWorker(null));
                if (!o.repetition().ok() && !after.spec().keepGoing()) {
                    failure = "case " + (caseIndex + 1) + " repetition " + repetition + " failed: "
                            + o.repetition().error() + " (keepGoing is false)";
                    break;
                }
            }
        } catch (RuntimeException e) {
            log.error("Matrix {} failed unexpectedly", id, e);
            failure = "internal error: " + e;
        }
        String stoppedEarly = failure;
        end(id, x -> judge(x, stoppedEarly));
    }

    private ForkedWorker.Outcome inProcess(RunSpec spec, int repetition, RunControl control) {
        try {
            RepetitionResult r = Measurement.of(spec).control(control).runRepetition(repetition);
            return new ForkedWorker.Outcome(r, Environment.current(), null);
        } catch (CancellationException e) {
            return null;
        }
    }

    /** Adds a finished step to its case; once the case has all its repetitions, summarises it. */
    private static MatrixRecord record(MatrixRecord m, int caseIndex, ForkedWorker.Outcome o) {
        List<MatrixRecord.Case> cases = new ArrayList<>(m.cases());
        MatrixRecord.Case c = cases.get(caseIndex);
        List<RepetitionResult> reps = new ArrayList<>(c.repetitions());
        reps.add(o.repetition());
        reps.sort(Comparator.comparingInt(RepetitionResult::repetition));
        Summary summary = null;
        String error = null;
        if (reps.size() == c.spec().repetitions() || reps.stream().anyMatch(r -> !r.ok())) {
            MeasurementResult judged = Measurement.result(c.spec(), o.repetition().transport(), reps, false);
            summary = judged.summary();
            error = judged.ok() ? null : judged.error();
        }
        cases.set(caseIndex, new MatrixRecord.Case(c.number(), c.spec(), o.repetition().transport(), reps, summary,
                error));
        return m.with(m.status(), m.startedAt(), m.finishedAt(), m.progress(), cases, m.ok(), m.error(),
                o.environment() != null ? o.environment() : m.workerEnvironment());
    }

    /** The matrix's outcome; {@code failure} is an error that stopped it early, if any. */
    private MatrixRecord judge(MatrixRecord m, String failure) {
        long failed = m.cases().stream().filter(MatrixRecord.Case::failed).count();
        long complete = m.cases().stream().filter(c -> c.summary() != null).count();
        RunStatus status;
        String error;
        if (stopRequested()) {
            status = stoppedStatus();
            error = status == RunStatus.INTERRUPTED ? INTERRUPTED
                    : "cancelled; " + complete + " of " + m.cases().size() + " cases had completed";
        } else if (failure != null) {
            status = RunStatus.FAILED;
            error = failure;
        } else if (failed > 0) {
            status = RunStatus.FAILED;
            error = failed + " of " + m.cases().size() + " cases failed";
        } else {
            status = RunStatus.SUCCEEDED;
            error = null;
        }
        return m.with(status, m.startedAt(), Instant.now(), null, m.cases(), status == RunStatus.SUCCEEDED, error,
                m.workerEnvironment());
    }
}
