package io.loopbench.recommendations;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.process.Environment;
import io.loopbench.jobs.RunStatus;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.race.Candidate;
import io.loopbench.race.Race;
import io.loopbench.race.RaceSample;
import io.loopbench.race.RacePlan;
import io.loopbench.race.Racer;
import io.loopbench.race.RecommendationSpec;
import io.loopbench.system.SystemInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A recommendation as stored ({@code recommendations/<id>.json} in the data directory) and returned by the API.
 * Immutable: each state change, and each finished repetition, makes a new record that is stored before it is
 * announced, so a cancelled or interrupted race keeps every repetition that finished, and its verdict is judged again
 * from them ({@link Race#judge}).
 *
 * @param schemaVersion     version of this document's layout
 * @param id                the recommendation's id
 * @param status            queued, running, succeeded (decided, or undecided at the end of its budget), failed
 *                          (every candidate failed or was eliminated), cancelled or interrupted
 * @param spec              the effective spec
 * @param candidates        the candidates raced, in their fixed order
 * @param plan              the rounds and looks, and the level of every test
 * @param createdAt         when it was accepted
 * @param startedAt         when it started; null before
 * @param finishedAt        when it finished; null before
 * @param progress          while running: the repetition under way
 * @param repetitions       per candidate, per round from 1: the repetition's result (without its timeline); null
 *                          where the candidate did not run that round
 * @param verdict           how the race stands: after its last round, or its final answer once finished
 * @param error             why it failed, was cancelled or interrupted
 * @param system            the service host
 * @param workerEnvironment the JVM that measured (the last forked worker's)
 * @param worker            while a forked worker measures: its process; null otherwise
 */
public record RecommendationRecord(
        int schemaVersion,
        String id,
        RunStatus status,
        RecommendationSpec spec,
        List<Candidate> candidates,
        RacePlan plan,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        Progress progress,
        List<List<RepetitionResult>> repetitions,
        Race.Verdict verdict,
        String error,
        SystemInfo system,
        Environment workerEnvironment,
        WorkerProcess worker) {

    public static final int SCHEMA_VERSION = 1;

    public RecommendationRecord {
        List<List<RepetitionResult>> copy = new ArrayList<>();
        for (List<RepetitionResult> own : repetitions) {
            copy.add(Collections.unmodifiableList(new ArrayList<>(own)));
        }
        repetitions = Collections.unmodifiableList(copy);
    }

    /**
     * @param step           1-based repetition under way
     * @param round          its round, of at most {@code maxRounds}
     * @param candidate      the candidate it measures
     * @param racing         candidates still racing
     * @param elapsedSeconds since the race started
     * @param budgetSeconds  the budget
     */
    public record Progress(int step, int round, int maxRounds, String candidate, int racing, double elapsedSeconds,
                           double budgetSeconds) {
    }

    static RecommendationRecord queued(String id, Racer.Prepared race, Instant now, SystemInfo system) {
        List<List<RepetitionResult>> none = race.candidates().stream().map(c -> List.<RepetitionResult>of())
                .toList();
        RecommendationRecord r = new RecommendationRecord(SCHEMA_VERSION, id, RunStatus.QUEUED, race.spec(),
                race.candidates(), race.plan(), now, null, null, null, none, null, null, system, null, null);
        return r.judged(false);
    }

    /** The race this record runs. */
    Racer.Prepared race() {
        return new Racer.Prepared(spec, candidates, plan);
    }

    /** The wall time planned: the budget. */
    public double estimatedSeconds() {
        return spec.budgetSeconds();
    }

    /** The verdict judged again from the repetitions; {@code finished}: undecided rather than racing. */
    RecommendationRecord judged(boolean finished) {
        List<List<RaceSample>> samples = repetitions.stream()
                .map(own -> own.stream().map(r -> r == null ? null : RaceSample.of(r)).toList()).toList();
        return withVerdict(race().judge(samples, finished));
    }

    RecommendationRecord with(RunStatus s, Instant started, Instant finished, String error) {
        return new RecommendationRecord(schemaVersion, id, s, spec, candidates, plan, createdAt, started, finished,
                s == RunStatus.RUNNING ? progress : null, repetitions, verdict, error, system, workerEnvironment,
                s == RunStatus.RUNNING ? worker : null);
    }

    RecommendationRecord withProgress(Progress p) {
        return new RecommendationRecord(schemaVersion, id, status, spec, candidates, plan, createdAt, startedAt,
                finishedAt, p, repetitions, verdict, error, system, workerEnvironment, worker);
    }

    RecommendationRecord withWorker(WorkerProcess w) {
        return new RecommendationRecord(schemaVersion, id, status, spec, candidates, plan, createdAt, startedAt,
                finishedAt, progress, repetitions, verdict, error, system, workerEnvironment, w);
    }

    /** This record with {@code v}, as the race judged it at its end (with the look a budget's end adds). */
    RecommendationRecord withVerdict(Race.Verdict v) {
        return new RecommendationRecord(schemaVersion, id, status, spec, candidates, plan, createdAt, startedAt,
                finishedAt, progress, repetitions, v, error, system, workerEnvironment, worker);
    }

    /**
     * A finished repetition of candidate {@code c} in {@code round}, stored without its timeline, with the race's
     * verdict after it ({@link Racer#run} judged it).
     */
    RecommendationRecord withRepetition(int c, int round, RepetitionResult r, Environment env, Race.Verdict v) {
        List<List<RepetitionResult>> all = new ArrayList<>(repetitions);
        for (int i = 0; i < all.size(); i++) {
            List<RepetitionResult> own = new ArrayList<>(all.get(i));
            while (own.size() < round) {
                own.add(null);
            }
            if (i == c) {
                own.set(round - 1, r.withoutTimeline().withRepetition(round));
            }
            all.set(i, own);
        }
        return new RecommendationRecord(schemaVersion, id, status, spec, candidates, plan, createdAt, startedAt,
                finishedAt, progress, all, v, error, system, env != null ? env : workerEnvironment, worker);
    }

    /** This record with its elapsed time brought up to {@code now}; unchanged unless running. */
    public RecommendationRecord asOf(Instant now) {
        if (status != RunStatus.RUNNING || progress == null || startedAt == null) {
            return this;
        }
        double elapsed = Duration.between(startedAt, now).toMillis() / 1000.0;
        return withProgress(new Progress(progress.step(), progress.round(), progress.maxRounds(),
                progress.candidate(), progress.racing(), elapsed, progress.budgetSeconds()));
    }
}
