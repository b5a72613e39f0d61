package io.loopbench.recommendations;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.events.EventStreams;
import io.loopbench.events.EventStreamsProperties;
import io.loopbench.jobs.JobQueue;
import io.loopbench.jobs.RunStatus;
import io.loopbench.race.Race;
import io.loopbench.race.RecommendationSpec;
import io.loopbench.runs.Isolation;
import io.loopbench.runs.RunService;
import io.loopbench.runs.RunStore;
import io.loopbench.runs.RunsProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Recommendations through the service, their repetitions in-process (the service forks; the race and its storage
 * are the same): a real race of two candidates to its end, stored; refusals before any work; and a race the service
 * was stopped during, marked interrupted and judged as it stood when the service starts again.
 */
class RecommendationServiceTest {

    static final ObjectMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;
    JobQueue jobs;
    RunService runs;
    RecommendationService recommendations;
    RecommendationEvents events;
    RunsProperties properties;

    @BeforeEach
    void start() {
        properties = new RunsProperties(dir, 10, new RunsProperties.Limits(30, 5, 64, 60, 600),
                new RunsProperties.Worker(List.of("-Xmx256m"), 45, false), new RunsProperties.Network(List.of()));
        jobs = new JobQueue(10);
        jobs.start();
        runs = new RunService(new RunStore(dir, JSON), properties, JSON, List.of(), jobs);
        runs.start();
        startRecommendations();
    }

    void startRecommendations() {
        events = new RecommendationEvents(EventStreamsProperties.defaults(), new EventStreams.Slots(256),
                id -> Optional.empty());
        recommendations = new RecommendationService(store(), runs, properties, jobs, events, Isolation.IN_PROCESS);
        recommendations.start();
    }

    RecommendationStore store() {
        return new RecommendationStore(dir.resolve("recommendations"), JSON);
    }

    @AfterEach
    void stop() {
        recommendations.stop();
        runs.stop();
        jobs.stop();
        events.close();
    }

    /**
     * Shared 1 against shared 2 on NIO (which loads everywhere), TCP 128 B, 2 × 2, 0.1 s + 1 s: 2.6 s a repetition
     * in the plan, so 34 s hold 6 rounds, and 10.4 s the 2 a decision needs.
     */
    static RecommendationSpec small(double budget) {
        RunSpec load = RunSpec.builder().protocol(Protocol.TCP).payloadBytes(128).clients(2).window(2).seconds(1.0)
                .warmupSeconds(0.1).warmupMode(WarmupMode.FIXED).build();
        return new RecommendationSpec(load, budget, null, null, null, List.of(IoModel.SHARED), List.of(1, 2),
                List.of(Transport.NIO), null);
    }

    RecommendationRecord await(String id, Predicate<RecommendationRecord> condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            RecommendationRecord r = recommendations.get(id);
            if (condition.test(r)) {
                return r;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("recommendation did not reach the condition: " + recommendations.get(id));
    }

    @Test
    void aRaceRunsItsRoundsAndIsStoredWithItsAnswer() throws Exception {
        RecommendationRecord queued = recommendations.submit(small(34));
        assertThat(queued.candidates()).hasSize(2);
        assertThat(queued.plan().firstLook()).isEqualTo(2);
        assertThat(queued.verdict().outcome()).isEqualTo(Race.Outcome.RACING);

        RecommendationRecord done = await(queued.id(), r -> r.status().isFinished());

        int rounds = done.verdict().rounds();
        // every round of the budget, or fewer where a look decided it
        assertThat(rounds).isBetween(1, 6);
        assertThat(done.verdict().decidedAtRound() == null ? rounds : done.verdict().decidedAtRound())
                .isEqualTo(rounds);
        // each candidate ran every round (or failed or lost, and then ran no more)
        for (int c = 0; c < 2; c++) {
            Race.Entry e = done.verdict().candidates().get(c);
            List<RepetitionResult> own = done.repetitions().get(c);
            assertThat(own.stream().filter(Objects::nonNull).count()).isEqualTo(e.repetitions());
            assertThat(e.repetitions()).isEqualTo(e.eliminatedAtRound() != null ? e.eliminatedAtRound() : rounds);
            assertThat(own).filteredOn(Objects::nonNull).allSatisfy(r -> assertThat(r.timeline()).isNull());
        }
        assertThat(done.verdict().outcome()).isIn(Race.Outcome.WINNER, Race.Outcome.EQUIVALENT,
                Race.Outcome.UNDECIDED, Race.Outcome.NONE);
        assertThat(done.status()).isEqualTo(done.verdict().outcome() == Race.Outcome.NONE ? RunStatus.FAILED
                : RunStatus.SUCCEEDED);
        assertThat(done.verdict().answer()).isNotBlank();
        assertThat(store().find(queued.id())).contains(done);
        assertThat(RecommendationReport.markdown(done.race(), done.verdict(), 30.0))
                .contains("# Recommendation: tcp 128 B, 2 clients × window 2", "shared 1 · nio · netty",
                        "shared 2 · nio · netty", "30 s used; " + rounds + " round" + (rounds == 1 ? "" : "s")
                                + " run of at most 6" + (done.verdict().decidedAtRound() == null ? "."
                                : "; decided after round " + rounds + ", so stopping then saved 4 s of the budget."));
    }

    @Test
    void aBudgetThatCannotDecideIsRefusedBeforeAnyWorkAndNothingIsStored() {
        assertThatThrownBy(() -> recommendations.submit(small(10)))
                .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.violations())
                        .extracting(Violation::field).containsExactly("budgetSeconds"));
        assertThatThrownBy(() -> recommendations.submit(small(601)))
                .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.violations())
                        .extracting(Violation::allowed).containsExactly(
                                "at most 600 (limit loopbench.limits.max-recommendation-seconds)"));
        assertThat(recommendations.store().all()).isEmpty();
    }

    @Test
    void aRaceTheServiceStoppedDuringIsInterruptedAndJudgedAsItStood() throws Exception {
        RecommendationRecord queued = recommendations.submit(small(34));
        await(queued.id(), r -> r.repetitions().stream().mapToLong(own -> own.stream()
                .filter(Objects::nonNull).count()).sum() >= 2);
        recommendations.stop();
        RecommendationRecord stopped = store().find(queued.id()).orElseThrow();
        // as a killed service leaves it: still running on disk
        store().save(stopped.with(RunStatus.RUNNING, stopped.startedAt(), null, null));

        startRecommendations();
        RecommendationRecord after = recommendations.get(queued.id());

        assertThat(after.status()).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(after.error()).contains("finished repetitions are kept");
        assertThat(after.verdict().rounds()).isGreaterThanOrEqualTo(1);
        assertThat(after.verdict().outcome()).isIn(Race.Outcome.UNDECIDED, Race.Outcome.NONE, Race.Outcome.WINNER,
                Race.Outcome.EQUIVALENT);
        assertThat(after.verdict().outcome()).isNotEqualTo(Race.Outcome.RACING);
    }
}
