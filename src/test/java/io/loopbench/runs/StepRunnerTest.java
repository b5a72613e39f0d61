package io.loopbench.runs;

import io.loopbench.engine.Checks;
import io.loopbench.engine.EchoPairSetup;
import io.loopbench.engine.Failure;
import io.loopbench.engine.JvmActivity;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.ResourceUse;
import io.loopbench.engine.RoundTripTimes;
import io.loopbench.engine.Throughput;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class StepRunnerTest {

    private static final RunSpec SPEC = RunSpec.builder().build();

    private static List<StepRunner.Step> steps(int n) {
        List<StepRunner.Step> steps = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            steps.add(new StepRunner.Step(i % 2, i, SPEC));
        }
        return steps;
    }

    /** Passes each step, and notes what ran and what was recorded. */
    private static class Recording implements StepRunner.Sink {
        final List<String> seen = new ArrayList<>();

        @Override
        public Failure before(StepRunner.Step step, int number) {
            seen.add("before " + number);
            return null;
        }

        @Override
        public Failure finished(StepRunner.Step step, RepetitionOutcome outcome) {
            seen.add("recorded " + outcome.repetition().repetition());
            return null;
        }
    }

    private static RepetitionOutcome passed(int repetition) {
        return new RepetitionOutcome(new RepetitionResult(repetition, true, null, null,
                new EchoPairSetup(Transport.NIO, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(null, null, null, null, null),
                new RoundTripTimes(null, null, null),
                new ResourceUse(null, null), new JvmActivity(null, null),
                new Checks(null, null, null, null, null, List.of(), List.of()),
                null, null, null), null, null, null);
    }

    @Test
    void everyStepRunsInOrderAndIsRecordedWithNoFailure() {
        Recording sink = new Recording();

        Failure f = StepRunner.run("test", steps(3), s -> (spec, rep, l) -> passed(rep), () -> false, sink);

        assertThat(f).isNull();
        assertThat(sink.seen).containsExactly("before 1", "recorded 1", "before 2", "recorded 2", "before 3",
                "recorded 3");
    }

    @Test
    void aStepTheSinkSkipsIsPassedOverNotRunAndTheNextRuns() {
        List<Integer> ran = new ArrayList<>();
        Recording skipping = new Recording() {
            @Override
            public boolean skip(StepRunner.Step step) {
                return step.repetition() == 2; // its case decided: no more repetitions
            }
        };

        Failure f = StepRunner.run("test", steps(3), s -> (spec, rep, l) -> {
            ran.add(rep);
            return passed(rep);
        }, () -> false, skipping);

        assertThat(f).isNull();
        assertThat(ran).containsExactly(1, 3);
        assertThat(skipping.seen).containsExactly("before 1", "recorded 1", "before 3", "recorded 3");
    }

    @Test
    void aFailureBeforeOrAfterAStepStopsTheStepsAndIsReturned() {
        Failure lost = new Failure.PlacementLost("placement", "agent-a left");
        Recording refusing = new Recording() {
            @Override
            public Failure before(StepRunner.Step step, int number) {
                super.before(step, number);
                return number == 2 ? lost : null;
            }
        };
        assertThat(StepRunner.run("test", steps(3), s -> (spec, rep, l) -> passed(rep), () -> false, refusing))
                .isSameAs(lost);
        assertThat(refusing.seen).containsExactly("before 1", "recorded 1", "before 2");

        Failure stop = new Failure.StepFailed(1, 1, new Failure.NoEcho("measured phase"));
        Recording stopping = new Recording() {
            @Override
            public Failure finished(StepRunner.Step step, RepetitionOutcome outcome) {
                super.finished(step, outcome);
                return stop;
            }
        };
        assertThat(StepRunner.run("test", steps(3), s -> (spec, rep, l) -> passed(rep), () -> false, stopping))
                .isSameAs(stop);
        assertThat(stopping.seen).containsExactly("before 1", "recorded 1");
    }

    @Test
    void aCancelledStepOrOneThatEndsOnceItsOwnerStopsIsNotRecorded() {
        Recording sink = new Recording();
        assertThat(StepRunner.run("test", steps(3), s -> (spec, rep, l) -> rep == 2 ? null : passed(rep),
                () -> false, sink)).isNull();
        assertThat(sink.seen).containsExactly("before 1", "recorded 1", "before 2");

        AtomicBoolean stopping = new AtomicBoolean();
        Recording late = new Recording();
        assertThat(StepRunner.run("test", steps(3), s -> (spec, rep, l) -> {
            stopping.set(rep == 2);
            return passed(rep);
        }, stopping::get, late)).isNull();
        assertThat(late.seen).containsExactly("before 1", "recorded 1", "before 2");
    }

    @Test
    void anUnexpectedExceptionEndsTheStepsAsAnInternalFailure() {
        Recording sink = new Recording();

        Failure f = StepRunner.run("test", steps(2), s -> (spec, rep, l) -> {
            throw new IllegalStateException("defect");
        }, () -> false, sink);

        assertThat(f).isEqualTo(new Failure.Internal("java.lang.IllegalStateException: defect"));
        assertThat(f.message()).isEqualTo("internal error: java.lang.IllegalStateException: defect");
        assertThat(sink.seen).containsExactly("before 1");
    }
}
