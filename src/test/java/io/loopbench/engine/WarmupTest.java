package io.loopbench.engine;

import io.loopbench.engine.server.ServerFault;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import org.junit.jupiter.api.Test;

import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/** Warm-up in rounds: fixed for its time, auto until steady or its cap. */
class WarmupTest {

    /** Ten rounds, the last five newest in a ring of ten: round 9 is the newest. */
    private static boolean steady(double[] rates, long[] compileMillis) {
        return Repetition.steady(rates, compileMillis, 9);
    }

    @Test
    void flatThroughputAndNoCompileTimeIsSteady() {
        double[] rates = {100, 104, 97, 101, 99, 102, 98, 100, 103, 97};
        long[] compiled = {50, 50, 50, 50, 50, 55, 55, 55, 55, 55};
        assertThat(steady(rates, compiled)).isTrue();
    }

    @Test
    void throughputStillRisingIsNotSteady() {
        double[] rates = {60, 62, 65, 66, 70, 80, 82, 85, 88, 90};
        long[] compiled = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assertThat(steady(rates, compiled)).isFalse();
    }

    @Test
    void aJitStillCompilingIsNotSteadyHoweverFlatTheThroughput() {
        double[] rates = {100, 100, 100, 100, 100, 100, 100, 100, 100, 100};
        long[] compiled = {0, 0, 0, 0, 0, 100, 100, 100, 100, 150};
        assertThat(steady(rates, compiled)).isFalse();
    }

    @Test
    void noThroughputIsNotSteady() {
        assertThat(steady(new double[10], new long[10])).isFalse();
    }

    /** Steady needs two spans of rounds to compare: a cap before the eleventh round can only be reached. */
    @Test
    void anAutoWarmupCappedBeforeItCouldCompareTwoSpansStopsAtItsCapAndWarns() {
        RunSpec spec = quick().warmupMode(WarmupMode.AUTO).warmupSeconds(0.4).warmupMaxSeconds(1.5).build();

        RepetitionResult r = Measurement.of(spec).run().repetitions().getFirst();

        assertThat(r.ok()).as(r.error()).isTrue();
        WarmupResult w = r.warmup();
        assertThat(w.mode()).isEqualTo(WarmupMode.AUTO);
        assertThat(w.stoppedBecause()).isEqualTo(WarmupResult.CAP);
        assertThat(w.elapsedSeconds()).isGreaterThanOrEqualTo(1.5);
        assertThat(r.warnings()).anyMatch(s -> s.startsWith("auto warm-up reached its cap of 1.5 s"));
        assertThat(w.messages()).isPositive();
        assertThat(w.jit()).isNotNull();
    }

    /**
     * A server that holds every echo 2 ms (scheduled on its loop, not slept) sets the throughput, whatever else the
     * machine does: once the JIT has settled, the auto warm-up finds two equal spans of rounds and stops, steady,
     * after its least time and the two spans, well before its cap.
     */
    @Test
    void anAutoWarmupOfAStableLoadEndsSteadyBeforeItsCap() {
        ServerFault twoMillis = EngineTestSupport.delayEveryEcho(2_000_000);
        RunSpec spec = quick().clients(2).window(2).warmupMode(WarmupMode.AUTO).warmupSeconds(0.4)
                .warmupMaxSeconds(20.0).seconds(0.4).build();

        RepetitionResult r = EngineTestSupport.measure(spec).serverFault(twoMillis).run().repetitions().getFirst();

        assertThat(r.ok()).as(r.error()).isTrue();
        WarmupResult w = r.warmup();
        assertThat(w.stoppedBecause()).as("after %s s", w.elapsedSeconds()).isEqualTo(WarmupResult.STEADY);
        // eleven rounds at least: two spans of five to compare, after the first
        assertThat(w.elapsedSeconds()).isGreaterThanOrEqualTo(11 * Repetition.ROUND_SECONDS).isLessThan(20.0);
        assertThat(r.warnings()).noneMatch(s -> s.startsWith("auto warm-up"));
    }

    @Test
    void aFixedWarmupRunsItsTimeInRounds() {
        RepetitionResult r = EngineTestSupport.measure(quick().warmupSeconds(0.5).build()).run().repetitions().getFirst();

        assertThat(r.ok()).as(r.error()).isTrue();
        assertThat(r.warmup().mode()).isEqualTo(WarmupMode.FIXED);
        assertThat(r.warmup().stoppedBecause()).isEqualTo(WarmupResult.TIME);
        assertThat(r.warmup().elapsedSeconds()).isBetween(0.5, 1.0);
    }

    @Test
    void theAutoWarmupCapMustNotBeBelowItsLeast() {
        RunSpec spec = RunSpec.builder().warmupSeconds(5.0).warmupMaxSeconds(2.0).build();
        assertThat(spec.violations()).extracting(Violation::field).containsExactly("warmupMaxSeconds");
        assertThat(RunSpec.builder().warmupSeconds(30.0).build().warmupMaxSeconds()).isEqualTo(30.0);
        assertThat(RunSpec.builder().warmupMode(WarmupMode.FIXED).warmupSeconds(5.0).warmupMaxSeconds(2.0).build()
                .violations()).isEmpty();
        assertThat(RunSpec.builder().warmupSeconds(1.0).warmupMaxSeconds(7.0).build().phaseSeconds())
                .isEqualTo(7.0 + 3.0);
    }
}
