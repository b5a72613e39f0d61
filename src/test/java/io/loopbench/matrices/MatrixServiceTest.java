package io.loopbench.matrices;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.events.EventStreams;
import io.loopbench.events.EventStreamsProperties;
import io.loopbench.jobs.JobQueue;
import io.loopbench.jobs.RunStatus;
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
import java.util.Optional;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MatrixServiceTest {

    static final ObjectMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;
    JobQueue jobs;
    RunService runs;
    MatrixService matrices;
    MatrixEvents events;

    @BeforeEach
    void start() {
        RunsProperties p = new RunsProperties(dir, 10, new RunsProperties.Limits(30, 5, 64, 60, 60),
                new RunsProperties.Worker(List.of("-Xmx256m"), 45, false), new RunsProperties.Network(List.of()));
        jobs = new JobQueue(10);
        jobs.start();
        runs = new RunService(new RunStore(dir, JSON), p, JSON, List.of(), jobs);
        runs.start();
        events = new MatrixEvents(EventStreamsProperties.defaults(), new EventStreams.Slots(256),
                id -> Optional.empty());
        matrices = new MatrixService(new MatrixStore(dir.resolve("matrices"), JSON), runs, p, jobs, events);
        matrices.start();
    }

    @AfterEach
    void stop() {
        matrices.stop();
        runs.stop();
        jobs.stop();
        events.close();
    }

    static MatrixSpec small(int repetitions, double seconds) {
        return new MatrixSpec(List.of(Protocol.TCP), List.of(128), List.of(new MatrixSpec.Profile(2, 2)),
                List.of(IoModel.SHARED, IoModel.SHARDED), List.of(1, 2), null, null, null, null, seconds, 0.1, repetitions,
                false, Isolation.IN_PROCESS, null, null, WarmupMode.FIXED, null, null, null, null, null, null, null, null, null, null, null);
    }

    MatrixRecord await(String id, Predicate<MatrixRecord> condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            MatrixRecord m = matrices.get(id);
            if (condition.test(m)) {
                return m;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("matrix did not reach the condition: " + matrices.get(id));
    }

    @Test
    void aMatrixRunsEveryCaseAndRepetitionAndSummarisesEachCase() throws Exception {
        MatrixRecord queued = matrices.submit(small(2, 0.5));
        // shared 1, shared 2, sharded 2 (sharded 1 is shared 1)
        assertThat(queued.cases()).hasSize(3);
        assertThat(queued.estimatedSeconds()).isEqualTo(3 * RunService.estimate(queued.cases().getFirst().spec(),
                Isolation.IN_PROCESS));

        MatrixRecord done = await(queued.id(), m -> m.status().isFinished());

        // every case measured to its end, every echo validated by both clients; a 0.5 s phase on a loaded machine
        // may truly stall (a pause over 125 ms) and fail its case, which the matrix must then say
        assertThat(done.cases()).allSatisfy(c -> {
            assertThat(c.repetitions()).extracting(RepetitionResult::repetition).containsExactly(1, 2);
            c.repetitions().forEach(r -> io.loopbench.engine.EngineTestSupport.assertValidatedByEveryClient(r, 2));
            boolean allOk = c.repetitions().stream().allMatch(RepetitionResult::ok);
            assertThat(c.summary() == null ? null : c.summary().repetitions()).isEqualTo(allOk ? 2 : null);
        });
        long failed = done.cases().stream().filter(c -> c.summary() == null).count();
        assertThat(done.status()).as(done.error()).isEqualTo(failed == 0 ? RunStatus.SUCCEEDED : RunStatus.FAILED);
        assertThat(done.error()).isEqualTo(failed == 0 ? null : failed + " of 3 cases failed");
        assertThat(new MatrixStore(dir.resolve("matrices"), JSON).find(queued.id())).contains(done);
    }

    @Test
    void agentGroupsWithClusteringOffAreRefusedNamingTheFieldAndNothingIsStored() {
        MatrixSpec s = small(1, 0.5);
        MatrixSpec placed = new MatrixSpec(s.protocols(), s.payloads(), s.profiles(), s.ioModels(), s.ioThreads(),
                null, null, null, null, s.seconds(), s.warmupSeconds(), 1, false, null, null, null, s.warmupMode(),
                null, null, null, null, List.of(new io.loopbench.cluster.AgentGroup("agent-a", List.of("agent-b"))), null, null, null, null, null, null);

        assertThatThrownBy(() -> matrices.submit(placed)).isInstanceOfSatisfying(InvalidSpecException.class,
                e -> assertThat(e.violations()).extracting(Violation::field, Violation::allowed).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("agentGroups",
                                "agents in a cluster: clustering is off (loopbench.cluster.enabled)")));
        assertThat(matrices.store().all()).isEmpty();
    }

    @Test
    void cancellingKeepsTheFinishedStepsAndEveryCaseIsValidatedFirst() throws Exception {
        MatrixRecord queued = matrices.submit(small(3, 1.0));
        await(queued.id(), m -> m.progress() != null && m.progress().step() >= 3);

        MatrixRecord cancelled = matrices.cancel(queued.id());

        assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(cancelled.cases().stream().mapToInt(c -> c.repetitions().size()).sum()).isBetween(2, 3);

        MatrixSpec tooLong = small(5, 20.0);
        assertThatThrownBy(() -> matrices.submit(tooLong)).isInstanceOfSatisfying(InvalidSpecException.class,
                e -> assertThat(e.violations()).extracting(Violation::field).contains("estimatedSeconds"));
        MatrixSpec badCase = new MatrixSpec(List.of(Protocol.TCP), List.of(8, 100_000), null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
        assertThatThrownBy(() -> matrices.submit(badCase)).isInstanceOfSatisfying(InvalidSpecException.class,
                e -> assertThat(e.violations()).extracting(Violation::value).contains("8", "100000"));
        assertThat(matrices.store().all()).hasSize(1);
    }

    @Test
    void virtualThreadsLeaveShardedOutButTheirOtherRulesAreViolationsOfTheCases() {
        MatrixSpec sharedAndSharded = new MatrixSpec(List.of(Protocol.TCP), List.of(1024),
                List.of(new MatrixSpec.Profile(16, 16)), List.of(IoModel.SHARED, IoModel.SHARDED), List.of(2), null,
                null, null, List.of(Execution.NETTY, Execution.VIRTUAL_THREADS), 0.2, 0.1, 1, false,
                Isolation.IN_PROCESS, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
        MatrixRecord queued = matrices.submit(sharedAndSharded);
        assertThat(queued.cases()).extracting(c -> c.spec().ioModel() + " " + c.spec().execution())
                .containsExactly("SHARED NETTY", "SHARED VIRTUAL_THREADS", "SHARDED NETTY");

        // 32 × 16 KiB in flight per connection is more than blocking ends may have on TCP
        MatrixSpec tooMuchInFlight = new MatrixSpec(List.of(Protocol.TCP), List.of(16384),
                List.of(new MatrixSpec.Profile(16, 32)), List.of(IoModel.SHARED), List.of(1), null, null, null,
                List.of(Execution.NETTY, Execution.VIRTUAL_THREADS), null, null, 1, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null);
        assertThatThrownBy(() -> matrices.submit(tooMuchInFlight)).isInstanceOfSatisfying(
                InvalidSpecException.class, e -> assertThat(e.violations()).extracting(Violation::field)
                        .containsExactly("window×payloadBytes"));
    }
}
