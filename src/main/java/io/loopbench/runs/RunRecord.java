package io.loopbench.runs;

import io.loopbench.cluster.Placement;
import io.loopbench.jobs.RunStatus;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.Summary;
import io.loopbench.engine.spec.Transport;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.system.SystemInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A run as stored on disk and returned by the API: the same JSON in both places (see docs/storage.md). Immutable:
 * every state change makes a new record, which the store writes before anyone is told of the change.
 *
 * @param schemaVersion    version of this document's layout
 * @param id               the run's id
 * @param status           queued, running, succeeded, failed, cancelled or interrupted
 * @param isolation        forked (a fresh JVM per repetition) or in-process
 * @param spec             the full effective specification, defaults filled in
 * @param targetAddress    the address {@code spec.target} resolved to and was checked at when the run was accepted
 *                         ({@code ip:port}); the only address the run connects to. Null without a target
 * @param createdAt        when the run was accepted (ISO-8601, UTC)
 * @param startedAt        when it started running; null before
 * @param finishedAt       when it finished; null before
 * @param estimatedSeconds expected wall time of all repetitions (phases, plus set-up and drains)
 * @param progress         while running: repetition, phase and time; null otherwise
 * @param transport        the concrete transport {@code auto} resolved to, once known
 * @param repetitions      every repetition that finished, failed ones included
 * @param summary          median/min/max over repetitions; only when the run succeeded
 * @param ok               null until finished; then whether every repetition ran and passed
 * @param error            why the run failed, was cancelled or interrupted
 * @param system           the service host, recorded when the run was accepted
 * @param workerEnvironment the JVM that measured (the forked worker's, or the service's own in-process)
 * @param workerLogs       forked runs: each worker's stderr (progress lines and any error), per repetition
 * @param worker           forked runs, while a worker measures: its process, so that a restarted service can stop
 *                         it if the service was killed; null otherwise
 * @param placement        a run across hosts: which agent runs the echo server and which run clients (the spec's
 *                         clients are their sum); null for a run on this host
 * @param acrossHosts      a run across hosts: per finished repetition, what each agent did and how simultaneous the
 *                         measured phase's start was (the repetition's merged result is in {@code repetitions})
 */
public record RunRecord(
        int schemaVersion,
        String id,
        RunStatus status,
        Isolation isolation,
        RunSpec spec,
        String targetAddress,
        double estimatedSeconds,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        RunProgress progress,
        Transport transport,
        List<RepetitionResult> repetitions,
        Summary summary,
        Boolean ok,
        String error,
        SystemInfo system,
        Environment workerEnvironment,
        List<String> workerLogs,
        WorkerProcess worker,
        Placement placement,
        List<HostsRepetition> acrossHosts) {

    public static final int SCHEMA_VERSION = 1;

    public RunRecord {
        repetitions = repetitions == null ? List.of() : List.copyOf(repetitions);
        workerLogs = workerLogs == null ? List.of() : List.copyOf(workerLogs);
        acrossHosts = acrossHosts == null ? List.of() : List.copyOf(acrossHosts);
    }

    static RunRecord queued(String id, RunSpec spec, String targetAddress, Isolation isolation,
                            double estimatedSeconds, Instant now, SystemInfo system) {
        return queued(id, spec, targetAddress, isolation, estimatedSeconds, now, system, null);
    }

    static RunRecord queued(String id, RunSpec spec, String targetAddress, Isolation isolation,
                            double estimatedSeconds, Instant now, SystemInfo system, Placement placement) {
        return new RunRecord(SCHEMA_VERSION, id, RunStatus.QUEUED, isolation, spec, targetAddress,
                estimatedSeconds, now, null, null,
                null, null, List.of(), null, null, null, system, null, List.of(), null, placement, List.of());
    }

    RunRecord started(Instant now, Transport resolved) {
        return new RunRecord(schemaVersion, id, RunStatus.RUNNING, isolation, spec, targetAddress,
                estimatedSeconds, createdAt, now,
                null, new RunProgress(0, spec.repetitions(), "starting", 0, estimatedSeconds, null), resolved, repetitions,
                null, null, null, system, workerEnvironment, workerLogs, null, placement, acrossHosts);
    }

    RunRecord withProgress(RunProgress p) {
        return new RunRecord(schemaVersion, id, status, isolation, spec, targetAddress,
                estimatedSeconds, createdAt, startedAt,
                finishedAt, p, transport, repetitions, summary, ok, error, system, workerEnvironment, workerLogs, worker, placement,
                acrossHosts);
    }

    /** This run with one more repetition: its result, the JVM that measured it, its worker's log, its agents. */
    RunRecord withRepetition(RepetitionOutcome o) {
        List<RepetitionResult> reps = new ArrayList<>(repetitions);
        reps.add(o.repetition());
        List<String> logs = new ArrayList<>(workerLogs);
        if (o.workerLog() != null) {
            logs.add(o.workerLog());
        }
        List<HostsRepetition> hosts = new ArrayList<>(acrossHosts);
        if (o.acrossHosts() != null) {
            hosts.add(o.acrossHosts());
        }
        return new RunRecord(schemaVersion, id, status, isolation, spec, targetAddress,
                estimatedSeconds, createdAt, startedAt,
                finishedAt, progress, transport, reps, summary, ok, error, system,
                o.environment() != null ? o.environment() : workerEnvironment, logs, null, placement, hosts);
    }

    RunRecord withWorker(WorkerProcess w) {
        return new RunRecord(schemaVersion, id, status, isolation, spec, targetAddress,
                estimatedSeconds, createdAt, startedAt,
                finishedAt, progress, transport, repetitions, summary, ok, error, system, workerEnvironment, workerLogs,
                w, placement, acrossHosts);
    }

    /** The spec a repetition runs: the target, if any, at its checked address. */
    RunSpec executedSpec() {
        return targetAddress == null ? spec : spec.toBuilder().target(targetAddress).build();
    }

    /** This run with its progress times brought up to {@code now}; unchanged unless running. */
    public RunRecord asOf(Instant now) {
        if (status != RunStatus.RUNNING || progress == null || startedAt == null) {
            return this;
        }
        double elapsed = Duration.between(startedAt, now).toMillis() / 1000.0;
        return withProgress(new RunProgress(progress.repetition(), progress.repetitions(), progress.phase(), elapsed,
                Math.max(0, estimatedSeconds - elapsed), null));
    }

    RunRecord finished(RunStatus outcome, Instant now, Summary summary, String error) {
        return new RunRecord(schemaVersion, id, outcome, isolation, spec, targetAddress,
                estimatedSeconds, createdAt, startedAt, now,
                null, transport, repetitions, summary, outcome == RunStatus.SUCCEEDED, error, system,
                workerEnvironment, workerLogs, null, placement, acrossHosts);
    }
}
