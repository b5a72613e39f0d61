package io.loopbench.runs;

import io.loopbench.cluster.Coordinator;
import io.loopbench.cluster.DistributedRepetition;
import io.loopbench.cluster.DistributedRun;
import io.loopbench.cluster.Placement;
import io.loopbench.engine.Failure;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.ProgressListener;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.timeline.TimelineInterval;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.worker.WorkerEvent;
import org.HdrHistogram.AbstractHistogram;

import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Runs one repetition where a run or a matrix case is to run: in a forked worker JVM, in this JVM, or on cluster
 * agents. Runs and matrices pick one per run or case and call it step by step, so that both execute a repetition the
 * same way. Threads: {@link #run} blocks its caller until the repetition ends; the listener is called on the
 * executor's threads (a worker's pipe reader, the measuring thread, a JGroups thread).
 */
@FunctionalInterface
public interface RepetitionExecutor {

    /**
     * Runs repetition {@code repetition} of {@code spec}; null when it was cancelled before it finished (an
     * unfinished repetition is not kept). A failure is a failed result, never thrown.
     */
    RepetitionOutcome run(RunSpec spec, int repetition, StepListener listener);

    /** What a repetition tells while it runs; each default ignores it. */
    interface StepListener {
        /** A phase began: {@code warmup}, {@code measured}. */
        default void phase(String phase) {
        }

        /** A timeline interval closed (across hosts: merged over the client agents). */
        default void interval(TimelineInterval interval) {
        }

        /** A forked worker started (to be stored, so that a restarted service can stop it). */
        default void worker(WorkerProcess process) {
        }
    }

    /** Told nothing: across hosts, the agents' intervals are then not merged while they run. */
    StepListener SILENT = new StepListener() {
    };

    /**
     * On this host, as {@code isolation} says: in a fresh worker JVM ({@code cancelled} looked at while it runs) or
     * in this JVM ({@code control} cancelling it).
     */
    static RepetitionExecutor on(Isolation isolation, ForkedWorker worker, RunControl control,
                                 BooleanSupplier cancelled) {
        return isolation == Isolation.FORKED ? forked(worker, cancelled) : inProcess(control);
    }

    /** Each repetition in a fresh worker JVM; {@code cancelled} is looked at while it runs. */
    private static RepetitionExecutor forked(ForkedWorker workers, BooleanSupplier cancelled) {
        ForkedWorker worker = workers.forJob();
        return (spec, repetition, listener) -> {
            ForkedWorker.Outcome o = worker.run(spec, repetition, Transports.resolve(spec), event -> {
                switch (event) {
                    case WorkerEvent.Phase p -> listener.phase(p.phase());
                    case WorkerEvent.Interval i -> listener.interval(i.interval());
                    case WorkerEvent.Result ignored -> { } // the outcome's
                }
            }, listener::worker, cancelled);
            return new RepetitionOutcome(o.repetition(), o.environment(), o.stderr(), null);
        };
    }

    /** Each repetition in this JVM, cancelled through {@code control}. */
    private static RepetitionExecutor inProcess(RunControl control) {
        return (spec, repetition, listener) -> {
            try {
                RepetitionResult r = Measurement.of(spec).control(control).progress(new ProgressListener() {
                    @Override
                    public void phaseStarted(int rep, String phase, double seconds) {
                        listener.phase(phase);
                    }

                    @Override
                    public void intervalRecorded(int rep, TimelineInterval interval, AbstractHistogram rtt) {
                        listener.interval(interval);
                    }
                }).runRepetition(repetition);
                return new RepetitionOutcome(r, Environment.current(), null, null);
            } catch (CancellationException e) {
                return null;
            }
        };
    }

    /** Each repetition failed before it began, for {@code failure}. */
    static RepetitionExecutor failing(Failure failure) {
        return (spec, repetition, listener) -> new RepetitionOutcome(RepetitionResult.failed(repetition,
                Transports.resolve(spec), spec.ioThreads(), failure), null, null, null);
    }

    /**
     * Each repetition on the placement's agents ({@link DistributedRun}), cancelled through {@code control}; a
     * cancelled one comes back failed, saying so.
     */
    static RepetitionExecutor acrossHosts(Coordinator cluster, Placement placement, RunControl control) {
        return (spec, repetition, listener) -> {
            DistributedRepetition done = DistributedRun.repetition(cluster, placement, spec, repetition, control,
                    listener == SILENT ? null : listener::interval);
            return new RepetitionOutcome(done.result(), null, null,
                    new HostsRepetition(done.result().repetition(), done.agents(), done.start()));
        };
    }
}
