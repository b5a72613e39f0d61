package io.loopbench.engine;

import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.process.JvmEvents;
import io.loopbench.engine.server.ServerFault;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/** Warm-up in rounds: fixed for its time, auto until steady or its cap. */
class WarmupTest {

    /** Six rounds, the last three newest in a ring of six: round 5 is the newest. */
    private static String unsteady(double... rates) {
        return WarmupRounds.unsteadyThroughput(rates, 5);
    }

    @Test
    void flatThroughputIsSteadyHoweverNoisyEachRound() {
        assertThat(unsteady(100, 104, 97, 101, 99, 102)).isNull();
        assertThat(unsteady(100, 60, 140, 130, 70, 100)).isNull();
    }

    @Test
    void throughputStillRisingIsNotSteadyAndSaysByHowMuch() {
        assertThat(unsteady(60, 62, 65, 80, 82, 85))
                .isEqualTo("throughput moved +32.1 % from one span to the next (at most ±10 %)");
        assertThat(unsteady(100, 100, 100, 89, 89, 89)).startsWith("throughput moved -11.0 %");
    }

    @Test
    void noThroughputIsNotSteady() {
        assertThat(unsteady(new double[6])).isEqualTo("throughput: no echo in a span of rounds");
    }

    /**
     * Without the flight recorder the JIT part of the rule is the compilers' share of the last span's CPU capacity
     * (0.6 s on each processor), from the management bean's total: 2.5 % of it is allowed, a millisecond more not.
     */
    @Test
    void withoutTheRecorderAJitStillCompilingOverItsShareOfCpuIsNotSteady() {
        PhaseRunner.Outcome[] rounds = new PhaseRunner.Outcome[6];
        for (int i = 0; i < rounds.length; i++) {
            rounds[i] = new PhaseRunner.Outcome(java.time.Instant.EPOCH, java.time.Instant.EPOCH, 200_000_000L, 0, 0,
                    100_000_000L, 0, 0, false, null, java.util.Map.of(), java.util.Map.of(), java.util.Map.of());
        }
        long allowed = JitActivity.capacityNanos(600_000_000L) / 1_000_000 / 40; // 2.5 %, ms
        long[] quiet = {0, 0, 50, 51, 52, 50 + allowed};
        long[] busy = {0, 0, 50, 51, 52, 51 + allowed};

        assertThat(WarmupRounds.unquietJit(null, rounds, quiet, 5)).isNull();
        assertThat(WarmupRounds.unquietJit(null, rounds, busy, 5))
                .startsWith("JIT: compilation took 2.").endsWith(" % of the CPU the last span had (at most 2.5 %)");
    }

    /**
     * The flight recorder starts after the warm-up's first round: a last span that began before it recorded is not
     * known to be quiet, so it cannot end the warm-up; one that began after it can.
     */
    @Test
    void aLastSpanFromBeforeTheRecorderRecordedDoesNotEndTheWarmupByTheJit() {
        JvmEvents jit = JvmEvents.get(); // records once it returns
        java.time.Instant now = java.time.Instant.now();
        PhaseRunner.Outcome[] before = new PhaseRunner.Outcome[6];
        PhaseRunner.Outcome[] after = new PhaseRunner.Outcome[6];
        for (int i = 0; i < before.length; i++) {
            before[i] = new PhaseRunner.Outcome(java.time.Instant.EPOCH, now, 200_000_000L, 0, 0, 100_000_000L, 0, 0,
                    false, null, java.util.Map.of(), java.util.Map.of(), java.util.Map.of());
            after[i] = new PhaseRunner.Outcome(now.plusSeconds(3600), now.plusSeconds(3601), 200_000_000L, 0, 0,
                    100_000_000L, 0, 0, false, null, java.util.Map.of(), java.util.Map.of(), java.util.Map.of());
        }

        assertThat(jit.sees(java.time.Instant.EPOCH)).isFalse();
        assertThat(jit.sees(now)).isTrue();
        assertThat(WarmupRounds.unquietJit(jit, before, new long[6], 5))
                .isEqualTo("JIT: the flight recorder began recording within the last span, so its activity is not "
                        + "known");
        assertThat(WarmupRounds.unquietJit(jit, after, new long[6], 5)).isNull();
    }

    /**
     * The warm-up's last span may change measured-path code fewer times than a phase may: a span with 4 changes
     * leaves a phase quiet but holds the warm-up back, since a fresh JVM's late compilations come in bursts.
     */
    @Test
    void aWarmupEndsByTheJitOnlyWithFewerChangesThanAPhaseMayHave() {
        JitActivity three = new JitActivity(9, 1, 2.0, true, List.of(), 5L, 2L, 1L, 0.001);
        JitActivity four = new JitActivity(9, 1, 2.0, true, List.of(), 5L, 3L, 1L, 0.001);
        JitActivity overShare = new JitActivity(9, 0, 50.0, false, List.of(), 0L, 0L, 0L, 0.05);

        assertThat(WarmupRounds.unquietWarmup(three)).isNull();
        assertThat(four.pathOptimizations() + four.pathDeoptimizations())
                .isGreaterThan(JitActivity.WARMUP_PATH_CHANGES_ALLOWED)
                .isLessThanOrEqualTo(JitActivity.PATH_CHANGES_ALLOWED);
        assertThat(WarmupRounds.unquietWarmup(four)).isEqualTo("JIT over the last span: measured-path code changed 4 "
                + "times (at most 3 before the measured phase)");
        assertThat(WarmupRounds.unquietWarmup(overShare)).startsWith("JIT over the last span: compilation took 5.0 %");
    }

    /** Steady needs two spans of rounds to compare: a cap before the seventh round can only be reached. */
    @Test
    void anAutoWarmupCappedBeforeItCouldCompareTwoSpansStopsAtItsCapAndWarns() {
        RunSpec spec = quick().warmupMode(WarmupMode.AUTO).warmupSeconds(0.4).warmupMaxSeconds(1.1).build();

        RepetitionResult r = Measurement.of(spec).run().repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        WarmupResult w = r.checks().warmup();
        assertThat(w.mode()).isEqualTo(WarmupMode.AUTO);
        assertThat(w.stoppedBecause()).isEqualTo(WarmupResult.CAP);
        assertThat(w.elapsedSeconds()).isGreaterThanOrEqualTo(1.1);
        assertThat(w.heldBackBy()).isEqualTo("fewer than 7 rounds of 0.2 s before the cap");
        assertThat(r.checks().warnings()).contains("auto warm-up reached its cap of 1.1 s: " + w.heldBackBy());
        assertThat(w.messages()).isPositive();
        assertThat(w.jit()).isNotNull();
    }

    /**
     * A server that holds every echo 2 ms (scheduled on its loop, not slept) sets the throughput, whatever else the
     * machine does: once the JIT has settled (judged by the measured phase's own rule, from the flight recorder's
     * events), the auto warm-up finds two equal spans of rounds and stops, steady, after its least time and the two
     * spans, well before its cap.
     */
    @Test
    void anAutoWarmupOfAStableLoadEndsSteadyBeforeItsCap() {
        ServerFault twoMillis = EngineTestSupport.delayEveryEcho(2_000_000);
        RunSpec spec = quick().clients(2).window(2).warmupMode(WarmupMode.AUTO).warmupSeconds(0.4)
                .warmupMaxSeconds(20.0).seconds(0.4).build();

        RepetitionResult r = Measurement.of(spec).serverFault(twoMillis).run().repetitions().getFirst();

        // the subject is the warm-up: a measured phase stalled by a pause of the test JVM is still measured
        EngineTestSupport.assertValidatedByEveryClient(r, 2);
        WarmupResult w = r.checks().warmup();
        assertThat(w.stoppedBecause()).as("after %s s: %s", w.elapsedSeconds(), w.heldBackBy())
                .isEqualTo(WarmupResult.STEADY);
        // seven rounds at least: two spans of three to compare, after the first
        assertThat(w.elapsedSeconds()).isGreaterThanOrEqualTo((2 * WarmupRounds.STEADY_ROUNDS + 1)
                * WarmupRounds.ROUND_SECONDS).isLessThan(20.0);
        assertThat(w.heldBackBy()).isNull();
        assertThat(r.checks().warnings()).noneMatch(s -> s.startsWith("auto warm-up"));
        assertThat(r.checks().notes()).noneMatch(s -> s.startsWith("auto warm-up"));
    }

    @Test
    void aFixedWarmupRunsItsTimeInRounds() {
        RepetitionResult r = EngineTestSupport.measure(quick().warmupSeconds(0.5).build()).run().repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, quick().build().clients());
        assertThat(r.checks().warmup().mode()).isEqualTo(WarmupMode.FIXED);
        assertThat(r.checks().warmup().stoppedBecause()).isEqualTo(WarmupResult.TIME);
        assertThat(r.checks().warmup().elapsedSeconds()).isBetween(0.5, 1.0);
    }

    @Test
    void theAutoWarmupCapMustNotBeBelowItsLeast() {
        RunSpec spec = RunSpec.builder().warmupSeconds(5.0).warmupMaxSeconds(2.0).build();
        assertThat(spec.violations()).extracting(Violation::field).containsExactly("warmupMaxSeconds");
        assertThat(RunSpec.builder().warmupSeconds(30.0).build().warmupMaxSeconds()).isEqualTo(30.0);
        assertThat(RunSpec.builder().warmupMode(WarmupMode.FIXED).warmupSeconds(5.0).warmupMaxSeconds(2.0).build()
                .violations()).isEmpty();
        assertThat(RunSpec.builder().warmupSeconds(1.0).warmupMaxSeconds(7.0).build().phaseSeconds())
                .isEqualTo(7.0 + 2.0);
    }
}
