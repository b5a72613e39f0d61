package io.loopbench.race;

import io.loopbench.engine.spec.Protocol;
import io.loopbench.verdicts.ConfidenceSequence;
import io.loopbench.verdicts.NoiseFloor;

import java.util.Locale;

/**
 * How a race spends its budget and its error rate, fixed before it starts. Rounds: every surviving candidate runs one
 * repetition per round. After every complete round from {@code firstLook} on, the survivors are compared, each pair
 * by an anytime-valid confidence sequence on its per-round log ratios ({@link ConfidenceSequence}), and, with a p99
 * bound, each survivor's p99 against the bound, every test at {@code testAlpha} = alpha ÷ tests. A confidence
 * sequence holds at every round at once, so looking after every round costs no share of alpha: by Bonferroni's
 * inequality over the tests alone, the chance that the race eliminates a candidate that is not worse, or calls two
 * candidates equivalent that are not, is at most alpha over the whole race, whichever candidates lead, whenever it
 * stops. The noise the intervals assume is the machine's floor for the load's protocol, or the data's own spread where
 * larger. Immutable.
 *
 * @param candidates        candidates raced
 * @param testsPerLook      pairs (k(k − 1) ÷ 2), plus one bound test per candidate with a p99 bound
 * @param firstLook         the first round after which the survivors are compared: a decision needs two rounds
 * @param maxRounds         the most rounds the budget holds
 * @param alpha             the chance of any wrong elimination or equivalence over the whole race
 * @param testAlpha         the level of every test
 * @param repetitionSeconds the estimated wall time of one repetition, with which the budget was divided
 * @param noise             the floor of a round's log-ratio scale on the raced metric (0.06: 6 %) where a side has
 *                          more than one loop thread
 * @param p99Noise          the same for p99, with which a p99 bound is tested
 * @param tunedRounds       the round at which the intervals are made narrowest
 * @param soloNoise         the raced metric's floor where both sides have one loop thread; 0 in races stored before
 *                          it existed, which then take {@code noise}
 * @param soloP99Noise      the same for p99
 */
public record RacePlan(int candidates, int testsPerLook, int firstLook, int maxRounds, double alpha,
                       double testAlpha, double repetitionSeconds, double noise, double p99Noise,
                       double tunedRounds, double soloNoise, double soloP99Noise) {

    /** The most rounds a race may plan, whatever its budget. */
    public static final int MAX_ROUNDS = 200;

    /** The raced metric's noise between candidates of these loop threads: the noisier side's floor. */
    public ConfidenceSequence.Noise metricNoise(int ioThreads, int otherIoThreads) {
        boolean solo = ioThreads <= 1 && otherIoThreads <= 1 && soloNoise > 0;
        return new ConfidenceSequence.Noise(solo ? soloNoise : noise, tunedRounds);
    }

    /**
     * A repetition's p99 noise on these loop threads, for the bound: a round's log ratio being the difference of two
     * repetitions.
     */
    public ConfidenceSequence.Noise boundNoise(int ioThreads) {
        double floor = ioThreads <= 1 && soloP99Noise > 0 ? soloP99Noise : p99Noise;
        return new ConfidenceSequence.Noise(floor / Math.sqrt(2), tunedRounds);
    }

    /** The plan's method, in words. */
    public String method() {
        return String.format(Locale.ROOT, "anytime-valid confidence sequences (Howard et al. 2021, normal mixture) on "
                        + "per-round log ratios, looked at after every round from round %d, each at %.2g: alpha %s ÷ "
                        + "%d tests, Bonferroni; noise floor %.3f, %.3f between one-thread candidates (or the data's "
                        + "spread where larger), decisions "
                        + "surviving any one round left out", firstLook, testAlpha, alpha, testsPerLook, noise,
                soloNoise);
    }

    /**
     * The plan for {@code candidates} candidates in {@code budgetSeconds}, each repetition taking
     * {@code repetitionSeconds}, their noise the machine's floor for {@code protocol}; null when the budget holds
     * fewer rounds than a decision needs.
     */
    public static RacePlan of(int candidates, boolean bound, double alpha, double budgetSeconds,
                              double repetitionSeconds, Protocol protocol, RaceMetric metric) {
        int maxRounds = (int) Math.min(MAX_ROUNDS, Math.floor(budgetSeconds / (candidates * repetitionSeconds)));
        return maxRounds < ConfidenceSequence.LEAST_ROUNDS ? null
                : forRounds(candidates, bound, alpha, maxRounds, repetitionSeconds, protocol, metric);
    }

    /**
     * The plan for {@code candidates} candidates over at most {@code maxRounds} rounds (named apart from {@link #of},
     * whose budget an int would otherwise silently be taken for).
     */
    public static RacePlan forRounds(int candidates, boolean bound, double alpha, int maxRounds,
                                     double repetitionSeconds, Protocol protocol, RaceMetric metric) {
        int tests = candidates * (candidates - 1) / 2 + (bound ? candidates : 0);
        double tuned = NoiseFloor.RACE_ROUNDS;
        NoiseFloor.Metric raced = metric == RaceMetric.THROUGHPUT ? NoiseFloor.Metric.THROUGHPUT
                : NoiseFloor.Metric.P99;
        return new RacePlan(candidates, tests, ConfidenceSequence.LEAST_ROUNDS, maxRounds, alpha, alpha / tests,
                repetitionSeconds, NoiseFloor.of(protocol, raced, 2, tuned).floor(),
                NoiseFloor.of(protocol, NoiseFloor.Metric.P99, 2, tuned).floor(), tuned,
                NoiseFloor.of(protocol, raced, 1, tuned).floor(),
                NoiseFloor.of(protocol, NoiseFloor.Metric.P99, 1, tuned).floor());
    }

    /** The smallest budget for which {@link #of} gives a plan, in whole seconds. */
    public static double minimumBudget(int candidates, double repetitionSeconds) {
        return Math.ceil(ConfidenceSequence.LEAST_ROUNDS * candidates * repetitionSeconds);
    }
}
