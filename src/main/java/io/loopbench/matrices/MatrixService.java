package io.loopbench.matrices;

import io.loopbench.cluster.Coordinator;
import io.loopbench.engine.Failure;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Violation;
import io.loopbench.jobs.JobQueue;
import io.loopbench.jobs.QueuedService;
import io.loopbench.jobs.RunStatus;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.runs.ForkedWorker;
import io.loopbench.runs.Isolation;
import io.loopbench.runs.RepetitionExecutor;
import io.loopbench.runs.RepetitionOutcome;
import io.loopbench.runs.RunService;
import io.loopbench.runs.RunsProperties;
import io.loopbench.runs.StepRunner;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Accepts matrices, validates every case before anything runs, and executes them on the shared {@link JobQueue}
 * (so they never overlap a run): repetitions outermost, cases rotated per repetition, the executions of a case back
 * to back in an order alternated between repetitions ({@link CaseOrder#steps}), each (case, repetition) in its own
 * forked worker; or, with agent groups, across hosts, the groups at once ({@link #executeAcrossHosts}). Every finished
 * step is stored before it is announced. On start, matrices found running
 * are marked interrupted (keeping their finished steps) and queued ones are queued again (see
 * {@link QueuedService}).
 */
public class MatrixService extends QueuedService<MatrixRecord> {

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
            for (Violation v : runs.policy().violations(c, spec.isolation())) {
                caseViolations.add(v);
            }
        }
        violations.addAll(caseViolations);
        List<Integer> groups = spec.acrossHosts() && violations.isEmpty()
                ? CaseOrder.groups(cases, spec.agentGroups().size()) : List.of();
        if (spec.acrossHosts() && violations.isEmpty()) {
            violations.addAll(AgentGroupChecks.violations(runs.policy(), spec, cases));
        }
        double estimate = estimate(spec, cases, groups);
        if (violations.isEmpty() && estimate > properties.limits().maxMatrixSeconds()) {
            violations.add(new Violation("estimatedSeconds", String.format(Locale.ROOT, "%.0f", estimate),
                    String.format(Locale.ROOT, "at most %.0f (limit loopbench.limits.max-matrix-seconds); this "
                            + "matrix has %d cases × %d repetitions", properties.limits().maxMatrixSeconds(),
                            cases.size(), spec.repetitions())));
        }
        if (!violations.isEmpty()) {
            throw new InvalidSpecException(violations);
        }
        MatrixRecord m = MatrixRecord.queued(UUID.randomUUID().toString(), spec, cases, groups, estimate,
                Instant.now(), runs.system());
        enqueue(m);
        return m;
    }

    /**
     * Wall time at the most (every case its most repetitions): the cases' estimates added up (each repetition as
     * {@link io.loopbench.worker.RepetitionTime} plans it), groups decided early taking less — or across hosts the
     * busiest group's, the groups running at once.
     */
    static double estimate(MatrixSpec spec, List<RunSpec> cases, List<Integer> groups) {
        if (groups.isEmpty()) {
            return cases.stream().mapToDouble(c -> RunService.estimate(c, spec.isolation())).sum();
        }
        double[] perGroup = new double[spec.agentGroups().size()];
        for (int i = 0; i < cases.size(); i++) {
            perGroup[groups.get(i)] += RunService.estimate(cases.get(i), Isolation.IN_PROCESS);
        }
        return Arrays.stream(perGroup).max().orElse(0);
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
    protected MatrixRecord failed(MatrixRecord m, Failure failure) {
        return m.with(RunStatus.FAILED, m.startedAt(), Instant.now(), null, m.cases(), false, failure.message(),
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
        if (m.spec().acrossHosts()) {
            executeAcrossHosts(id, m, control);
            return;
        }
        RepetitionExecutor executor = RepetitionExecutor.on(m.spec().isolation(), worker, control,
                this::stopRequested);
        List<StepRunner.Step> steps = CaseOrder.steps(m.cases().stream().map(MatrixRecord.Case::spec).toList(),
                m.spec().repetitions());
        Failure failure = StepRunner.run("Matrix " + id, steps, step -> executor, this::stopRequested,
                new StepRunner.Sink() {
                    @Override
                    public boolean skip(StepRunner.Step step) {
                        MatrixSpec spec = m.spec();
                        return spec.stopsWhenDecided() && step.repetition() > spec.leastRepetitions()
                                && GroupRaces.done(get(id)).contains(step.caseIndex());
                    }

                    @Override
                    public Failure before(StepRunner.Step step, int number) {
                        update(id, x -> x.withProgress(new MatrixRecord.Progress(number, steps.size(),
                                step.caseIndex() + 1, x.cases().size(), step.repetition(), 0, 0, null)));
                        return null;
                    }

                    @Override
                    public RepetitionExecutor.StepListener listener(StepRunner.Step step) {
                        return new RepetitionExecutor.StepListener() {
                            @Override
                            public void worker(WorkerProcess process) {
                                update(id, x -> x.withWorker(process));
                            }
                        };
                    }

                    @Override
                    public Failure finished(StepRunner.Step step, RepetitionOutcome done) {
                        MatrixRecord after = update(id, x -> x.withStep(step.caseIndex(), done).withWorker(null));
                        return stopAfter(after, step, done);
                    }
                });
        end(id, x -> judge(x, failure));
    }

    /** Why the matrix stops after a step: it failed, and the matrix does not keep going; null to go on. */
    private static Failure stopAfter(MatrixRecord m, StepRunner.Step step, RepetitionOutcome done) {
        return done.repetition().ok() || m.spec().keepGoing() ? null
                : new Failure.StepFailed(step.caseIndex() + 1, step.repetition(), done.repetition().failure());
    }

    /**
     * Across hosts: one thread per agent group, each running its cases' steps in the matrix's step order
     * ({@link CaseOrder#steps}), so the groups run at once and each one case at a time. A group whose agents no
     * longer hold (left, or outside the allow-list) fails its step; with keepGoing false a failed step stops every
     * group before its next step (the steps under way finish). A cancellation stops each group's repetition in its
     * measured phase, and the unfinished ones are not kept.
     */
    private void executeAcrossHosts(String id, MatrixRecord m, RunControl control) {
        List<StepRunner.Step> steps = CaseOrder.steps(m.cases().stream().map(MatrixRecord.Case::spec).toList(),
                m.spec().repetitions());
        int groups = m.spec().agentGroups().size();
        AtomicInteger started = new AtomicInteger();
        AtomicReference<Failure> failure = new AtomicReference<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(
                Thread.ofPlatform().name("matrix-group-", 0).factory())) {
            for (int g = 0; g < groups; g++) {
                int group = g;
                List<StepRunner.Step> own = steps.stream()
                        .filter(st -> m.cases().get(st.caseIndex()).agentGroup() == group).toList();
                threads.submit(() -> runGroup(id, m, group, own, steps.size(), started, failure, control));
            }
        }
        end(id, x -> judge(x, failure.get()));
    }

    private void runGroup(String id, MatrixRecord m, int group, List<StepRunner.Step> steps, int allSteps,
                          AtomicInteger started, AtomicReference<Failure> failure, RunControl control) {
        Coordinator cluster = runs.policy().cluster().orElseThrow();
        int groups = m.spec().agentGroups().size();
        try {
            Failure stopped = StepRunner.run("Matrix " + id + " agent group " + group, steps, step -> {
                MatrixRecord.Case c = m.cases().get(step.caseIndex());
                Map<String, String> fields = new LinkedHashMap<>();
                c.placement().agents().forEach(a -> fields.put(a, "agentGroups[" + c.agentGroup() + "]"));
                List<Violation> now = runs.policy().agentViolations(fields, false);
                return now.isEmpty() ? RepetitionExecutor.acrossHosts(cluster, c.placement(), control)
                        : RepetitionExecutor.failing(new Failure.PlacementLost("agent group",
                                now.stream().map(Violation::message).collect(Collectors.joining("; "))));
            }, this::stopRequested, new StepRunner.Sink() {
                @Override
                public Failure before(StepRunner.Step step, int number) {
                    if (failure.get() != null) {
                        return failure.get(); // another group's step failed: this one stops too
                    }
                    // numbered under the record's lock, so that steps are announced in the order they are numbered
                    update(id, x -> x.withProgress(progress(x, m.cases().size(), allSteps)
                            .onGroup(group, groups, started.incrementAndGet(), step.caseIndex() + 1,
                                    step.repetition())));
                    return null;
                }

                @Override
                public Failure finished(StepRunner.Step step, RepetitionOutcome done) {
                    return stopAfter(update(id, x -> x.withStep(step.caseIndex(), done)), step, done);
                }
            });
            if (stopped != null) {
                failure.compareAndSet(null, stopped);
            }
        } finally {
            update(id, x -> x.withProgress(progress(x, m.cases().size(), allSteps)
                    .onGroup(group, groups, 0, null, null)));
        }
    }

    /** A matrix's progress so far, or none begun: no step yet (numbered from 1). */
    private static MatrixRecord.Progress progress(MatrixRecord m, int cases, int steps) {
        return m.progress() != null ? m.progress() : new MatrixRecord.Progress(0, steps, 0, cases, 0, 0, 0, null);
    }

    /** The matrix's outcome; {@code failure} is an error that stopped it early, if any. */
    private MatrixRecord judge(MatrixRecord m, Failure failure) {
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
            error = failure.message();
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
