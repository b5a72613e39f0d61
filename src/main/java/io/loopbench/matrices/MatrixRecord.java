package io.loopbench.matrices;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.loopbench.cluster.Placement;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.Summary;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.jobs.RunStatus;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.runs.HostsRepetition;
import io.loopbench.runs.RepetitionOutcome;
import io.loopbench.system.SystemInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A matrix as stored ({@code matrices/<id>.json} in the data directory) and returned by the API. Immutable: each
 * state change, and each finished (case, repetition) step, makes a new record that is stored before it is
 * announced, so a cancelled or interrupted matrix keeps every step that finished.
 *
 * @param schemaVersion     version of this document's layout
 * @param id                the matrix's id
 * @param status            queued, running, succeeded, failed, cancelled or interrupted
 * @param spec              the effective matrix specification
 * @param estimatedSeconds  expected wall time of all steps
 * @param createdAt         when it was accepted
 * @param startedAt         when it started; null before
 * @param finishedAt        when it finished; null before
 * @param progress          while running: step i of n, the case and repetition running, and the ETA
 * @param cases             every case with the repetitions that finished so far
 * @param ok                null until finished; then whether every case succeeded
 * @param error             why the matrix failed, was cancelled or interrupted
 * @param system            the service host
 * @param workerEnvironment the JVM that measured (the last forked worker's)
 * @param worker            while a forked worker measures: its process, so that a restarted service can stop it if
 *                          the service was killed; null otherwise
 */
public record MatrixRecord(
        int schemaVersion,
        String id,
        RunStatus status,
        MatrixSpec spec,
        double estimatedSeconds,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        Progress progress,
        List<Case> cases,
        Boolean ok,
        String error,
        SystemInfo system,
        Environment workerEnvironment,
        WorkerProcess worker) {

    public static final int SCHEMA_VERSION = 1;

    /**
     * @param step             1-based step running now, of {@code steps} (a step is one repetition of one case)
     * @param caseNumber       1-based case of that step
     * @param repetition       1-based repetition of that step
     * @param elapsedSeconds   since the matrix started
     * @param etaSeconds       estimated seconds to the end
     * @param groups           across hosts, where the agent groups run at once: each group's step under way (the
     *                         step, case and repetition above are the latest one started); null on this host
     */
    public record Progress(int step, int steps, int caseNumber, int cases, int repetition, double elapsedSeconds,
                           double etaSeconds, List<GroupStep> groups) {

        public Progress {
            groups = groups == null ? null : List.copyOf(groups);
        }

        /**
         * Across hosts: step {@code step} just started on agent group {@code group}, or (a null case) that group has
         * run its last step; the other groups' steps as they were.
         */
        Progress onGroup(int group, int groupCount, int step, Integer caseNumber, Integer repetition) {
            List<GroupStep> each = new ArrayList<>();
            for (int g = 0; g < groupCount; g++) {
                each.add(groups != null && g < groups.size() ? groups.get(g) : new GroupStep(g, null, null));
            }
            each.set(group, new GroupStep(group, caseNumber, repetition));
            return caseNumber == null
                    ? new Progress(this.step, steps, this.caseNumber, cases, this.repetition, elapsedSeconds,
                    etaSeconds, each)
                    : new Progress(step, steps, caseNumber, cases, repetition, elapsedSeconds, etaSeconds, each);
        }
    }

    /**
     * One agent group's step under way.
     *
     * @param agentGroup the group's index in the matrix's {@code agentGroups}
     * @param caseNumber 1-based case it runs; null once it has run its last step
     * @param repetition 1-based repetition of that case; null with the case
     */
    public record GroupStep(int agentGroup, Integer caseNumber, Integer repetition) {
    }

    /**
     * One case of the matrix.
     *
     * @param number      1-based, in expansion order
     * @param spec        the case's run specification
     * @param transport   the concrete transport used, once one repetition ran
     * @param repetitions the repetitions that finished, each from its own forked worker
     * @param summary     median/min/max once every repetition finished and passed
     * @param error       why the case failed
     * @param agentGroup  across hosts: the index of the matrix's agent group the case runs on; null on this host
     * @param placement   across hosts: where its load runs (the group's server agent, its clients spread over the
     *                    group's client agents); null on this host
     * @param acrossHosts across hosts: per finished repetition, what each agent did and the start skew
     */
    public record Case(int number, RunSpec spec, Transport transport, List<RepetitionResult> repetitions,
                       Summary summary, String error, Integer agentGroup, Placement placement,
                       List<HostsRepetition> acrossHosts) {

        public Case {
            repetitions = repetitions == null ? List.of() : List.copyOf(repetitions);
            acrossHosts = acrossHosts == null ? List.of() : List.copyOf(acrossHosts);
        }

        boolean failed() {
            return repetitions.stream().anyMatch(r -> !r.ok());
        }
    }

    /**
     * Repetitions not run because their case's group was decided first (its most repetitions less those run, over every
     * case); null until the matrix succeeded.
     */
    @JsonProperty
    public Integer repetitionsSaved() {
        return status != RunStatus.SUCCEEDED ? null : cases.stream()
                .mapToInt(c -> Math.max(0, spec.repetitions() - c.repetitions().size())).sum();
    }

    /** @param groups each case's agent group (see {@link CaseOrder#groups}); empty on this host */
    static MatrixRecord queued(String id, MatrixSpec spec, List<RunSpec> cases, List<Integer> groups,
                               double estimate, Instant now, SystemInfo system) {
        List<Case> cs = new ArrayList<>();
        for (RunSpec c : cases) {
            Integer g = groups.isEmpty() ? null : groups.get(cs.size());
            cs.add(new Case(cs.size() + 1, c, null, List.of(), null, null, g,
                    g == null ? null : spec.agentGroups().get(g).placement(c.clients()), List.of()));
        }
        return new MatrixRecord(SCHEMA_VERSION, id, RunStatus.QUEUED, spec, estimate, now, null, null, null, cs,
                null, null, system, null, null);
    }

    MatrixRecord with(RunStatus s, Instant started, Instant finished, Progress p, List<Case> c, Boolean ok,
                      String error, Environment env) {
        return new MatrixRecord(schemaVersion, id, s, spec, estimatedSeconds, createdAt, started, finished, p, c, ok,
                error, system, env, s == RunStatus.RUNNING ? worker : null);
    }

    MatrixRecord withWorker(WorkerProcess w) {
        return new MatrixRecord(schemaVersion, id, status, spec, estimatedSeconds, createdAt, startedAt, finishedAt,
                progress, cases, ok, error, system, workerEnvironment, w);
    }

    MatrixRecord withProgress(Progress p) {
        return with(status, startedAt, finishedAt, p, cases, ok, error, workerEnvironment);
    }

    /** Adds a finished step to its case; once the case has all its repetitions, summarises it. */
    MatrixRecord withStep(int caseIndex, RepetitionOutcome o) {
        List<Case> updated = new ArrayList<>(cases);
        Case c = updated.get(caseIndex);
        List<HostsRepetition> acrossHosts = new ArrayList<>(c.acrossHosts());
        if (o.acrossHosts() != null) {
            acrossHosts.add(o.acrossHosts());
            acrossHosts.sort(Comparator.comparingInt(HostsRepetition::repetition));
        }
        List<RepetitionResult> reps = new ArrayList<>(c.repetitions());
        reps.add(o.repetition());
        reps.sort(Comparator.comparingInt(RepetitionResult::repetition));
        Summary summary = null;
        String caseError = null;
        if (reps.size() == c.spec().repetitions() || reps.stream().anyMatch(r -> !r.ok())) {
            MeasurementResult judged = Measurement.result(c.spec(), o.repetition().setup().transport(), reps, false);
            summary = judged.summary();
            caseError = judged.ok() ? null : judged.error();
        }
        updated.set(caseIndex, new Case(c.number(), c.spec(), o.repetition().setup().transport(), reps, summary,
                caseError, c.agentGroup(), c.placement(), acrossHosts));
        return with(status, startedAt, finishedAt, progress, updated, ok, error,
                o.environment() != null ? o.environment() : workerEnvironment);
    }

    /** This matrix with its progress times brought up to {@code now}; unchanged unless running. */
    public MatrixRecord asOf(Instant now) {
        if (status != RunStatus.RUNNING || progress == null || startedAt == null) {
            return this;
        }
        double elapsed = Duration.between(startedAt, now).toMillis() / 1000.0;
        double perStep = progress.step() > 1 ? elapsed / (progress.step() - 1) : estimatedSeconds / progress.steps();
        double eta = Math.max(0, perStep * (progress.steps() - progress.step() + 1)
                - (progress.step() > 1 ? 0 : elapsed));
        return withProgress(new Progress(progress.step(), progress.steps(), progress.caseNumber(), progress.cases(),
                progress.repetition(), elapsed, eta, progress.groups()));
    }
}
