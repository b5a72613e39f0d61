package io.loopbench.recommendations;

import io.loopbench.engine.Failure;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.Violation;
import io.loopbench.jobs.JobQueue;
import io.loopbench.jobs.QueuedService;
import io.loopbench.jobs.RunStatus;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.race.Candidate;
import io.loopbench.race.Race;
import io.loopbench.race.Racer;
import io.loopbench.race.RecommendationSpec;
import io.loopbench.runs.Isolation;
import io.loopbench.runs.RepetitionExecutor;
import io.loopbench.runs.RepetitionOutcome;
import io.loopbench.runs.RunService;
import io.loopbench.runs.RunsProperties;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Accepts recommendations, refuses before any work what no race could decide (see {@link Racer#prepare}) or what
 * the service may not run, and races them on the shared {@link JobQueue} (never overlapping a run or a matrix), each
 * repetition in a fresh JVM. Every finished repetition is stored, with the race judged again, before it is announced.
 * On start, recommendations found running are marked interrupted (keeping their repetitions, judged as they stand)
 * and queued ones are queued again (see {@link QueuedService}).
 */
public class RecommendationService extends QueuedService<RecommendationRecord> {

    private static final String INTERRUPTED =
            "the service stopped while this race was running; its finished repetitions are kept";

    private final RunService runs;
    private final RunsProperties properties;
    private final RecommendationEvents events;
    private final Isolation isolation;

    /** @param isolation how repetitions run: forked (fresh JVMs) in the service */
    public RecommendationService(RecommendationStore store, RunService runs, RunsProperties properties,
                                 JobQueue jobs, RecommendationEvents events, Isolation isolation) {
        super(store, jobs, "recommendation", RecommendationRecord::id, RecommendationRecord::status,
                RecommendationRecord::estimatedSeconds, RecommendationRecord::createdAt);
        this.runs = runs;
        this.properties = properties;
        this.events = events;
        this.isolation = isolation;
    }

    public RecommendationStore store() {
        return (RecommendationStore) store;
    }

    /**
     * Prepares the race (candidates, plan), checks every candidate's spec against the service's rules and the budget
     * against the matrix cap, then queues it.
     *
     * @throws InvalidSpecException listing every violated rule
     */
    public RecommendationRecord submit(RecommendationSpec spec) {
        List<Violation> violations = new ArrayList<>();
        Racer.Prepared race = Racer.prepare(spec, Runtime.getRuntime().availableProcessors(),
                Transports::isAvailable, violations);
        if (race != null) {
            Set<Violation> each = new LinkedHashSet<>();
            for (Candidate c : race.candidates()) {
                each.addAll(runs.policy().violations(c.apply(race.spec().load()), isolation));
            }
            violations.addAll(each);
            double most = properties.limits().maxRecommendationSeconds();
            if (race.spec().budgetSeconds() > most) {
                violations.add(new Violation("budgetSeconds", String.format(Locale.ROOT, "%.0f",
                        race.spec().budgetSeconds()), String.format(Locale.ROOT, "at most %.0f (limit "
                        + "loopbench.limits.max-recommendation-seconds)", most)));
            }
        }
        if (!violations.isEmpty()) {
            throw new InvalidSpecException(violations);
        }
        RecommendationRecord r = RecommendationRecord.queued(UUID.randomUUID().toString(), race, Instant.now(),
                runs.system());
        enqueue(r);
        return r;
    }

    @Override
    protected RecommendationRecord cancelledWhileQueued(RecommendationRecord r) {
        return r.with(RunStatus.CANCELLED, null, Instant.now(), "cancelled while queued");
    }

    @Override
    protected WorkerProcess worker(RecommendationRecord r) {
        return r.worker();
    }

    @Override
    protected RecommendationRecord failed(RecommendationRecord r, Failure failure) {
        return r.with(RunStatus.FAILED, r.startedAt(), Instant.now(), failure.message()).judged(true);
    }

    @Override
    protected RecommendationRecord interrupted(RecommendationRecord r) {
        return r.with(RunStatus.INTERRUPTED, r.startedAt(), Instant.now(), INTERRUPTED).judged(true);
    }

    @Override
    protected void announce(RecommendationRecord r) {
        events.changed(r.asOf(Instant.now()));
    }

    @Override
    protected void execute(String id) {
        RunControl control = new RunControl();
        RecommendationRecord r = begin(id, control, x -> x.with(RunStatus.RUNNING, Instant.now(), null, null));
        if (r == null) {
            return;
        }
        RepetitionExecutor executor = RepetitionExecutor.on(isolation, runs.worker(), control, this::stopRequested);
        AtomicReference<Environment> environment = new AtomicReference<>();
        long started = System.nanoTime();
        RuntimeException unexpected = null;
        Race.Verdict verdict = null;
        try {
            verdict = Racer.run(r.race(), (c, spec, round) -> {
                RepetitionOutcome o = executor.run(spec, round, new RepetitionExecutor.StepListener() {
                    @Override
                    public void worker(WorkerProcess process) {
                        update(id, x -> x.withWorker(process));
                    }
                });
                if (o == null || stopRequested()) {
                    return null; // cancelled or stopping: an unfinished repetition is not kept
                }
                environment.set(o.environment());
                return o.repetition();
            }, new Racer.Listener() {
                @Override
                public void starting(int step, int round, int candidate) {
                    update(id, x -> x.withProgress(new RecommendationRecord.Progress(step, round,
                            x.plan().maxRounds(), x.candidates().get(candidate).label(),
                            (int) x.verdict().candidates().stream()
                                    .filter(e -> e.status() == Race.Status.RACING).count(),
                            (System.nanoTime() - started) / 1e9, x.spec().budgetSeconds())));
                }

                @Override
                public void recorded(int round, int candidate, io.loopbench.engine.RepetitionResult result,
                                     Race.Verdict verdict) {
                    update(id, x -> x.withRepetition(candidate, round, result, environment.get(), verdict)
                            .withWorker(null));
                }
            }, this::stopRequested, () -> (System.nanoTime() - started) / 1e9);
        } catch (RuntimeException e) {
            unexpected = e;
        }
        Failure failure = unexpected == null ? null : Failure.Internal.of(unexpected);
        Race.Verdict last = verdict;
        end(id, x -> outcome(x, failure, last));
    }

    /** The record's end: stopped, failed, or the race's own last verdict. */
    private RecommendationRecord outcome(RecommendationRecord r, Failure failure, Race.Verdict verdict) {
        if (stopRequested()) {
            RunStatus s = stoppedStatus();
            return r.with(s, r.startedAt(), Instant.now(), s == RunStatus.INTERRUPTED ? INTERRUPTED
                    : "cancelled; its finished repetitions are kept").judged(true);
        }
        if (failure != null) {
            return failed(r, failure);
        }
        RecommendationRecord judged = r.withVerdict(verdict);
        return judged.verdict().outcome() == Race.Outcome.NONE
                ? judged.with(RunStatus.FAILED, r.startedAt(), Instant.now(),
                "every candidate failed or was eliminated: see each candidate's reason")
                : judged.with(RunStatus.SUCCEEDED, r.startedAt(), Instant.now(), null);
    }
}
