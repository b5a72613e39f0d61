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
 * @param noise             the floor of a round's log-ratio scale on the raced metric (0.06: 6 %)
 * @param p99Noise          the same for p99, with which a p99 bound is tested
 * @param tunedRounds       the round at which the intervals are made narrowest
 */
public record RacePlan(int candidates, int testsPerLook, int firstLook, int maxRounds, double alpha,
                       double testAlpha, double repetitionSeconds, double noise, double p99Noise,
                       double tunedRounds) {

    /** The most rounds a race may plan, whatever its budget. */
    public static final int MAX_ROUNDS = 200;

    /** The raced metric's noise. */
    public ConfidenceSequence.Noise metricNoise() {
        return new ConfidenceSequence.Noise(noise, tunedRounds);
    }

    /** A repetition's p99 noise, for the bound: a round's log ratio being the difference of two repetitions. */
    public ConfidenceSequence.Noise boundNoise() {
        return new ConfidenceSequence.Noise(p99Noise / Math.sqrt(2), tunedRounds);
    }

    /** The plan's method, in words. */
    public String method() {
        return String.format(Locale.ROOT, "anytime-valid confidence sequences (Howard et al. 2021, normal mixture) on "
                        + "per-round log ratios, looked at after every round from round %d, each at %.2g: alpha %s ÷ "
                        + "%d tests, Bonferroni; noise floor %.3f (or the data's spread where larger), decisions "
                        + "surviving any one round left out", firstLook, testAlpha, alpha, testsPerLook, noise);
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
                : of(candidates, bound, alpha, maxRounds, repetitionSeconds, protocol, metric);
    }

    /** The plan for {@code candidates} candidates over at most {@code maxRounds} rounds. */
    public static RacePlan of(int candidates, boolean bound, double alpha, int maxRounds, double repetitionSeconds,
                              Protocol protocol, RaceMetric metric) {
        int tests = candidates * (candidates - 1) / 2 + (bound ? candidates : 0);
        double tuned = NoiseFloor.RACE_ROUNDS;
        ConfidenceSequence.Noise p99 = NoiseFloor.of(protocol, NoiseFloor.Metric.P99, tuned);
        ConfidenceSequence.Noise raced = metric == RaceMetric.THROUGHPUT
                ? NoiseFloor.of(protocol, NoiseFloor.Metric.THROUGHPUT, tuned) : p99;
        return new RacePlan(candidates, tests, ConfidenceSequence.LEAST_ROUNDS, maxRounds, alpha, alpha / tests,
                repetitionSeconds, raced.floor(), p99.floor(), tuned);
    }

    /** The smallest budget for which {@link #of} gives a plan, in whole seconds. */
    public static double minimumBudget(int candidates, double repetitionSeconds) {
        return Math.ceil(ConfidenceSequence.LEAST_ROUNDS * candidates * repetitionSeconds);
    }
}
