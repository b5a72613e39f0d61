package io.loopbench.race;

import io.loopbench.engine.Checks;
import io.loopbench.engine.EchoPairSetup;
import io.loopbench.engine.Failure;
import io.loopbench.engine.JvmActivity;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.ResourceUse;
import io.loopbench.engine.RoundTripTimes;
import io.loopbench.engine.Throughput;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.MemoryUsage;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Races on synthetic candidates with known figures, each repetition drawn with log-normal noise from a seeded random:
 * the race must find a known order, stop early on a large gap, run to its budget on a small one, and keep its stated
 * error rate over many races where nothing differs — also while the machine drifts.
 */
public class RaceTest {

    /** TCP 1024 B, 16 × 16, 3 s + auto warm-up of 1 … 10 s: 5.5 + 3 + 3 = 11.5 s a repetition in the plan. */
    static final RunSpec LOAD = RunSpec.builder().protocol(Protocol.TCP).payloadBytes(1024).clients(16).window(16)
            .seconds(3.0).warmupSeconds(1.0).build();

    /** Shared 1, shared 2 and sharded 2 on epoll: the three candidates of a 2-core machine. */
    static Racer.Prepared prepare(double budget, Double p99Bound) {
        List<Violation> why = new ArrayList<>();
        Racer.Prepared p = Racer.prepare(new RecommendationSpec(LOAD, budget, p99Bound, null, null, null, null,
                List.of(Transport.EPOLL), null), 2, t -> true, why);
        assertThat(why).isEmpty();
        assertThat(p.candidates()).extracting(Candidate::label)
                .containsExactly("shared 1 · epoll · netty", "shared 2 · epoll · netty", "sharded 2 · epoll · netty");
        return p;
    }

    @Test
    void aLoadWithBlockingWorkRacesWhereTheWorkRunsAndThePoolSizesUpToTheMessagesInFlight() {
        RunSpec blocking = LOAD.toBuilder().clients(16).window(1).blockingMicros(1000).build();
        RecommendationSpec spec = new RecommendationSpec(blocking, 600.0, null, null, null, List.of(IoModel.SHARED),
                List.of(1), null, null, null, null).effective();

        // no transports given: only the first that loads, the budget going to the offloads; pools 4 and 16 (= 16 × 1)
        assertThat(spec.candidates(2, t -> t != Transport.IO_URING)).extracting(Candidate::label).containsExactly(
                "shared 1 · epoll · netty", "shared 1 · epoll · netty · executor of 4 threads",
                "shared 1 · epoll · netty · executor of 16 threads", "shared 1 · epoll · netty · virtual-threads offload");
        Candidate executor = spec.candidates(2, t -> true).get(2);
        assertThat(executor.apply(blocking).offloadThreads()).isEqualTo(16);
        assertThat(executor.apply(blocking).violations()).isEmpty();
        // without work, the loop alone; a pool size out of range is refused, naming the field
        assertThat(new RecommendationSpec(LOAD, 600.0, null, null, null, null, null, List.of(Transport.EPOLL), null)
                .effective().candidates(2, t -> true)).allMatch(c -> c.offload() == Offload.LOOP);
        assertThat(new RecommendationSpec(blocking, 600.0, null, null, null, null, null, null, null, null,
                List.of(4, 2000)).effective().violations()).extracting(Violation::field)
                .containsExactly("offloadThreads");
    }

    @Test
    void aGrpcLoadWithWorkRacesItsNettyLayoutsAndGrpcJavasDefaultExecutorToo() {
        RunSpec grpc = LOAD.toBuilder().protocol(Protocol.GRPC).grpcMethod(GrpcMethod.STREAM).work(10_000).build();
        RecommendationSpec spec = new RecommendationSpec(grpc, 600.0, null, null, null, List.of(IoModel.SHARED),
                List.of(1), List.of(Transport.EPOLL), null, null, List.of(4)).effective();

        List<Candidate> candidates = spec.candidates(2, t -> true);

        assertThat(candidates).extracting(Candidate::label).containsExactly("shared 1 · epoll · netty",
                "shared 1 · epoll · netty · executor of 4 threads", "shared 1 · epoll · netty · virtual-threads offload",
                "shared 1 · epoll · netty · grpc-java's default executor");
        assertThat(candidates).allSatisfy(c -> assertThat(c.apply(grpc).violations()).isEmpty());
        assertThat(candidates.getLast().apply(grpc).grpcMethod()).isEqualTo(GrpcMethod.STREAM);
        // another protocol's work races no gRPC executor
        assertThat(new RecommendationSpec(grpc.toBuilder().protocol(Protocol.TCP).grpcMethod(null).build(), 600.0,
                null, null, null, List.of(IoModel.SHARED), List.of(1), List.of(Transport.EPOLL), null, null,
                List.of(4)).effective().candidates(2, t -> true)).noneMatch(c -> c.offload() == Offload.GRPC_DEFAULT);
    }

    /** A passed repetition of one second: this throughput and p99, CPU µs per round trip, no warning. */
    public static RepetitionResult passed(double rate, double p99Us, double cpuUsPerRoundTrip) {
        return passed(rate, p99Us, cpuUsPerRoundTrip, List.of());
    }

    /** As {@link #passed(double, double, double)}, with these warnings. */
    public static RepetitionResult passed(double rate, double p99Us, double cpuUsPerRoundTrip,
                                          List<String> warnings) {
        long n = Math.round(rate);
        return new RepetitionResult(1, true, null, null,
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, n, n, rate, null),
                new RoundTripTimes(new Latency(LatencyMode.MESSAGE, n, 1, 1, 1, p99Us, 1, 1, 1), null, null),
                new ResourceUse(new CpuUsage(cpuUsPerRoundTrip * n / 1e6, 1, 100), new MemoryUsage(100L << 20,
                        110L << 20)), new JvmActivity(null, null),
                new Checks(null, null, null, null, null, warnings, List.of()),
                null, null, null);
    }

    /**
     * Races {@code truth} (each candidate's true throughput for a round number) with noise {@code sigma} on the log
     * scale; each step multiplies by {@code drift} per step (the machine slowing or speeding).
     */
    static Race.Verdict race(Racer.Prepared p, long seed, double sigma, double drift, IntFunction<double[]> truth) {
        Random random = new Random(seed);
        double[] clock = {0};
        int[] steps = {0};
        return Racer.run(p, (c, spec, round) -> {
            clock[0] += p.plan().repetitionSeconds();
            double factor = Math.pow(drift, steps[0]++) * Math.exp(sigma * random.nextGaussian());
            return passed(truth.apply(round)[c] * factor, 500 / factor, 10 / factor);
        }, (round, c, r, v) -> { }, () -> false, () -> clock[0]);
    }

    @Test
    void aLargeGapIsFoundInOrderAndStopsTheRaceEarly() {
        Racer.Prepared p = prepare(600, null);
        Race.Verdict v = race(p, 1, 0.03, 1, round -> new double[] {700_000, 1_000_000, 850_000});

        assertThat(v.outcome()).isEqualTo(Race.Outcome.WINNER);
        assertThat(v.recommended()).isEqualTo("shared 2 · epoll · netty");
        assertThat(v.decidedAtRound()).isLessThanOrEqualTo(4).isLessThan(p.plan().maxRounds());
        assertThat(v.runnerUp()).isEqualTo("sharded 2 · epoll · netty");
        assertThat(v.margin().ratio()).isBetween(1.1, 1.25);
        assertThat(v.margin().lower()).isGreaterThan(1.0);
        Race.Entry worst = v.candidates().getFirst();
        assertThat(worst.status()).isEqualTo(Race.Status.ELIMINATED);
        assertThat(worst.eliminatedBy()).isEqualTo("shared 2 · epoll · netty");
        assertThat(worst.lostBy().ratio()).isBetween(0.65, 0.75);
        assertThat(worst.reason()).contains("established worse than shared 2").contains("round trips/s");
        assertThat(v.candidates().get(1).status()).isEqualTo(Race.Status.RECOMMENDED);
        assertThat(v.candidates().get(1).cpuUsPerRoundTrip()).isBetween(9.0, 11.0);
        assertThat(v.candidates().get(1).peakRssMiB()).isEqualTo(110.0);
    }

    @Test
    void aGapUnderTheNoiseRunsToTheBudgetUndecided() {
        Racer.Prepared p = prepare(300, null);
        Race.Verdict v = race(p, 2, 0.05, 1, round -> new double[] {1_000_000, 1_010_000, 990_000});

        assertThat(v.outcome()).isEqualTo(Race.Outcome.UNDECIDED);
        assertThat(v.rounds()).isEqualTo(p.plan().maxRounds());
        assertThat(v.decidedAtRound()).isNull();
        assertThat(v.candidates()).filteredOn(e -> e.status() == Race.Status.ELIMINATED).isEmpty();
        assertThat(v.recommended()).isNotNull();
    }

    @Test
    void candidatesWithinTheMinimumEffectAreATieAndTheCheapestIsRecommended() {
        Racer.Prepared p = prepare(1200, null);
        Random random = new Random(3);
        double[] clock = {0};
        double[] cpu = {12, 10, 11};
        Race.Verdict v = Racer.run(p, (c, spec, round) -> {
            clock[0] += p.plan().repetitionSeconds();
            return passed(1_000_000 * Math.exp(0.005 * random.nextGaussian()), 400, cpu[c]);
        }, (round, c, r, verdict) -> { }, () -> false, () -> clock[0]);

        assertThat(v.outcome()).isEqualTo(Race.Outcome.EQUIVALENT);
        assertThat(v.recommended()).isEqualTo("shared 2 · epoll · netty");
        assertThat(v.margin().lower()).isGreaterThan(1 / 1.05);
        assertThat(v.margin().upper()).isLessThan(1.05);
    }

    /**
     * The stated error rate: 400 seeded races of three equal candidates, noise 5 %; a race that eliminates anyone or
     * names a winner is wrong. At alpha 0.05 at most 20 may be (RaceSimulationTest proves it over more kinds of
     * noise). The same under a drift of −20 % over the race, which pairing by round cancels.
     */
    @Test
    void racesOfEqualCandidatesKeepTheStatedErrorRateAlsoUnderDrift() {
        Racer.Prepared p = prepare(300, null);
        int perStepDrift = p.plan().maxRounds() * 3;
        for (double drift : new double[] {1, Math.pow(0.8, 1.0 / perStepDrift)}) {
            int wrong = 0;
            for (int seed = 0; seed < 400; seed++) {
                Race.Verdict v = race(p, 1000 + seed, 0.05, drift, round -> new double[] {1e6, 1e6, 1e6});
                if (v.outcome() == Race.Outcome.WINNER || v.candidates().stream()
                        .anyMatch(e -> e.status() == Race.Status.ELIMINATED)) {
                    wrong++;
                }
            }
            assertThat(wrong).as("wrong races of 400 at drift %s", drift).isLessThanOrEqualTo(20);
        }
    }

    /** The check the error-rate test exists for: without pairing by round, the same drift would eliminate. */
    @Test
    void aDriftNotPairedByRoundWouldBeCalledADifference() {
        double[] first = new double[12];
        double[] later = new double[12];
        for (int i = 0; i < 12; i++) {
            first[i] = 1e6 * Math.pow(0.98, i);
            later[i] = 1e6 * Math.pow(0.98, i + 12);
        }
        assertThat(io.loopbench.verdicts.Verdicts.unpaired(first, later, true,
                new io.loopbench.verdicts.VerdictRule(0.004, 0.05)).established()).isTrue();
        assertThat(io.loopbench.verdicts.Verdicts.paired(first, first.clone(),
                new io.loopbench.verdicts.VerdictRule(0.004, 0.05)).established()).isFalse();
    }

    @Test
    void aFailingCandidateIsEliminatedNamingWhy() {
        Racer.Prepared p = prepare(300, null);
        double[] clock = {0};
        Race.Verdict v = Racer.run(p, (c, spec, round) -> {
            clock[0] += p.plan().repetitionSeconds();
            if (c == 2 && round == 2) {
                return RepetitionResult.failed(1, Transport.EPOLL, 1,
                        new Failure.Unfair(null, 3, 12, 1000, 0.94));
            }
            return passed(1e6, 500, 10);
        }, (round, c, r, verdict) -> { }, () -> false, () -> clock[0]);

        Race.Entry failed = v.candidates().get(2);
        assertThat(failed.status()).isEqualTo(Race.Status.FAILED);
        assertThat(failed.eliminatedAtRound()).isEqualTo(2);
        assertThat(failed.repetitions()).isEqualTo(2);
        assertThat(failed.reason()).startsWith("failed in round 2: ").contains("unfair");
    }

    @Test
    void aCandidateOverTheP99BoundIsEliminated() {
        Racer.Prepared p = prepare(600, 1000.0);
        Random random = new Random(4);
        double[] clock = {0};
        Race.Verdict v = Racer.run(p, (c, spec, round) -> {
            clock[0] += p.plan().repetitionSeconds();
            double noise = Math.exp(0.03 * random.nextGaussian());
            return passed(1e6 * noise, (c == 1 ? 2000 : 500) * noise, 10);
        }, (round, c, r, verdict) -> { }, () -> false, () -> clock[0]);

        assertThat(v.candidates().get(1).status()).isEqualTo(Race.Status.ELIMINATED);
        assertThat(v.candidates().get(1).reason()).contains("p99 established over the bound of 1000 µs");
        assertThat(v.recommended()).isNotEqualTo("shared 2 · epoll · netty");
    }

    @Test
    void theBudgetIsRefusedWhenItHoldsNoDecidingRoundAndNamesTheLeastThatDoes() {
        List<Violation> why = new ArrayList<>();
        Racer.Prepared none = Racer.prepare(new RecommendationSpec(LOAD, 40.0, null, null, null, null, null,
                List.of(Transport.EPOLL), null), 2, t -> true, why);

        assertThat(none).isNull();
        assertThat(why).singleElement().satisfies(w -> {
            assertThat(w.field()).isEqualTo("budgetSeconds");
            assertThat(w.allowed()).startsWith("at least 47 for these 3 candidates").contains("needs 2 rounds");
        });
        assertThat(RacePlan.of(3, false, 0.05, 69.0, 11.5, Protocol.TCP, RaceMetric.THROUGHPUT)).isNotNull();
        assertThat(RacePlan.of(3, false, 0.05, 68.9, 11.5, Protocol.TCP, RaceMetric.THROUGHPUT)).isNull();
        assertThat(RacePlan.minimumBudget(6, 11.5)).as("six candidates").isEqualTo(138);
    }

    @Test
    void aLoadOneCandidateRunsOrABadFieldIsRefusedNamingTheField() {
        List<Violation> why = new ArrayList<>();
        assertThat(Racer.prepare(new RecommendationSpec(LOAD, 600.0, null, null, null, null, List.of(1),
                List.of(Transport.EPOLL), null), 2, t -> true, why)).isNull();
        assertThat(why).extracting(Violation::field).containsExactly("candidates");

        why.clear();
        assertThat(Racer.prepare(new RecommendationSpec(LOAD.toBuilder().payloadBytes(3).build(), 0.5, -1.0, 2.0,
                0.0, null, List.of(0), List.of(Transport.JDK), null), 2, t -> true, why)).isNull();
        assertThat(why).extracting(Violation::field).containsExactly("load.payloadBytes", "budgetSeconds",
                "p99BoundUs", "minimumEffect", "alpha", "ioThreads", "transports");

        why.clear();
        assertThat(Racer.prepare(new RecommendationSpec(LOAD, 600.0, null, null, null, null, List.of(2, 2),
                List.of(Transport.EPOLL), null), 2, t -> true, why)).isNull();
        assertThat(why).extracting(Violation::field, Violation::allowed)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ioThreads", "each value once"));
    }

    /**
     * Every complete round from the second is a look: a gap that the first two rounds establish is decided after
     * round 2, and a round not yet complete is not looked at.
     */
    @Test
    void everyCompleteRoundFromTheSecondIsALook() {
        Racer.Prepared p = prepare(600, null);
        List<List<RaceSample>> samples = new ArrayList<>();
        for (double rate : new double[] {0.5e6, 1e6, 0.5e6}) {
            samples.add(new ArrayList<>(List.of(RaceSample.of(passed(rate, 400, 10)),
                    RaceSample.of(passed(rate * 1.01, 400, 10)))));
        }
        Race.Verdict decided = p.judge(samples, false);
        assertThat(decided.outcome()).isEqualTo(Race.Outcome.WINNER);
        assertThat(decided.decidedAtRound()).isEqualTo(2);
        assertThat(decided.candidates().getFirst().lostBy().coverage()).isEqualTo(1 - 0.05 / 3);

        samples.get(1).set(1, null); // round 2 of one candidate not yet run
        Race.Verdict incomplete = p.judge(samples, false);
        assertThat(incomplete.outcome()).isEqualTo(Race.Outcome.RACING);
        assertThat(incomplete.candidates()).allMatch(e -> e.status() == Race.Status.RACING);
    }

    @Test
    void aWarnedRepetitionIsRunAgainWithinItsRoundOnce() {
        Racer.Prepared p = prepare(600, null);
        double[] clock = {0};
        List<String> runs = new ArrayList<>();
        List<String> again = new ArrayList<>();
        Race.Verdict v = Racer.run(p, (c, spec, round) -> {
            clock[0] += p.plan().repetitionSeconds();
            runs.add(round + ":" + c);
            boolean warn = runs.size() == 1; // the first repetition only
            return passed(c == 1 ? 1e6 : 0.5e6, 400, 10,
                    warn ? List.of("measured phase not JIT-quiet") : List.of());
        }, new Racer.Listener() {
            @Override
            public void recorded(int round, int candidate, RepetitionResult result, Race.Verdict verdict) {
            }

            @Override
            public void runningAgain(int round, int candidate, RepetitionResult warned) {
                again.add(round + ":" + candidate);
            }
        }, () -> false, () -> clock[0]);

        assertThat(again).containsExactly("1:0");
        assertThat(runs.subList(0, 4)).containsExactly("1:0", "1:0", "1:1", "1:2");
        assertThat(v.candidates().getFirst().clean()).isEqualTo(v.candidates().getFirst().repetitions());
        assertThat(v.decidedAtRound()).isEqualTo(2);

        // a race stored when the count was named "usable" reads it as clean
        tools.jackson.databind.json.JsonMapper json = tools.jackson.databind.json.JsonMapper.builder().build();
        Race.Entry first = v.candidates().getFirst();
        String stored = json.writeValueAsString(first).replace("\"clean\":", "\"usable\":");
        assertThat(stored).contains("\"usable\":" + first.clean());
        assertThat(json.readValue(stored, Race.Entry.class)).isEqualTo(first);
    }

    /**
     * A race stored before plans had noise floors (its JSON has lookRounds and no noise, which read as 0) is judged
     * by today's method, with its load's floors, as a fresh plan of the same rounds would judge it.
     */
    @Test
    void aRaceStoredBeforeTheNoiseFloorsIsJudgedWithItsLoadsFloors() {
        Racer.Prepared fresh = prepare(600, null);
        RacePlan old = new RacePlan(3, 3, 0, fresh.plan().maxRounds(), 0.05, 0.05 / 9,
                fresh.plan().repetitionSeconds(), 0, 0, 0, 0, 0);
        Racer.Prepared stored = new Racer.Prepared(fresh.spec(), fresh.candidates(), old);

        assertThat(stored.plan()).isEqualTo(fresh.plan());
        List<List<RaceSample>> samples = new ArrayList<>();
        for (double rate : new double[] {0.5e6, 1e6, 0.5e6}) {
            samples.add(List.of(RaceSample.of(passed(rate, 400, 10)), RaceSample.of(passed(rate, 400, 10))));
        }
        assertThat(stored.judge(samples, true)).isEqualTo(fresh.judge(samples, true));
    }

    @Test
    void thePlanLooksAfterEveryRoundAtAlphaOverThePairs() {
        RacePlan plan = RacePlan.of(3, false, 0.05, 300.0, 11.5, Protocol.TCP, RaceMetric.THROUGHPUT);
        assertThat(plan.maxRounds()).isEqualTo(8);
        assertThat(plan.firstLook()).isEqualTo(2);
        assertThat(plan.testAlpha()).isEqualTo(0.05 / 3);
        assertThat(RacePlan.of(3, true, 0.05, 300.0, 11.5, Protocol.TCP, RaceMetric.THROUGHPUT).testAlpha()).isEqualTo(0.05 / 6);
    }

    @Test
    void autoMayRaceBesideTheTransportItResolvesToAnAaRace() {
        List<Violation> why = new ArrayList<>();
        Racer.Prepared p = Racer.prepare(new RecommendationSpec(LOAD, 120.0, null, null, null,
                List.of(io.loopbench.engine.spec.IoModel.SHARED), List.of(1), List.of(Transport.AUTO, Transport.EPOLL),
                null), 2, t -> true, why);
        assertThat(why).isEmpty();
        assertThat(p.candidates()).extracting(Candidate::label)
                .containsExactly("shared 1 · auto · netty", "shared 1 · epoll · netty");
    }

    @Test
    void roundsRotateAndReverseTheOrder() {
        assertThat(Racer.order(List.of(0, 1, 2), 1)).containsExactly(0, 1, 2);
        assertThat(Racer.order(List.of(0, 1, 2), 2)).containsExactly(0, 2, 1);
        assertThat(Racer.order(List.of(0, 1, 2), 3)).containsExactly(2, 0, 1);
    }
}
