package io.loopbench.verdicts;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.DoubleStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The verdict rule against samples whose truth is known: seeded simulations (so each run is the same run), exact
 * small-sample p-values, Holm's arithmetic, and each decision made and not made.
 */
class VerdictsTest {

    private static final VerdictRule RULE = VerdictRule.DEFAULT;

    /** n repetitions of a throughput near {@code level}, with lognormal noise of {@code spread} (0.05: about 5 %). */
    private static double[] sample(SplittableRandom random, int n, double level, double spread) {
        return DoubleStream.generate(() -> level * Math.exp(spread * SimulatedNoise.gaussian(random))).limit(n)
                .toArray();
    }

    @Test
    void anAaComparisonIsCalledDifferentInAtMostOneTrialInTwentyPairedOrNot() {
        SplittableRandom random = new SplittableRandom(20261202);
        int trials = 2_000;
        int pairedEstablished = 0;
        int unpairedEstablished = 0;
        int pairedNotDifferent = 0;
        for (int t = 0; t < trials; t++) {
            // pairs share the repetition's drift (the machine's state), which pairing cancels
            double[] drift = sample(random, 8, 1, 0.10);
            double[] a = sample(random, 8, 1, 0.04);
            double[] b = sample(random, 8, 1, 0.04);
            for (int i = 0; i < 8; i++) {
                a[i] *= drift[i];
                b[i] *= drift[i];
            }
            Difference paired = Verdicts.paired(a, b, RULE);
            pairedEstablished += paired.established() ? 1 : 0;
            pairedNotDifferent += paired.decision() != Decision.ESTABLISHED
                    && paired.decision() != Decision.BELOW_MINIMUM_EFFECT ? 1 : 0;
            unpairedEstablished += Verdicts.unpaired(sample(random, 5, 1, 0.05), sample(random, 5, 1, 0.05), true,
                    RULE).established() ? 1 : 0;
        }
        assertThat(pairedEstablished).as("paired A/A called established").isLessThanOrEqualTo(trials / 20);
        assertThat(pairedNotDifferent).as("paired A/A not called different").isGreaterThanOrEqualTo(trials * 95 / 100);
        assertThat(unpairedEstablished).as("unpaired A/A called established").isLessThanOrEqualTo(trials / 20);
    }

    @Test
    void aTrueTwentyPercentGainIsEstablishedAndItsIntervalCoversIt() {
        SplittableRandom random = new SplittableRandom(7);
        int trials = 500;
        int established = 0;
        int covered = 0;
        for (int t = 0; t < trials; t++) {
            double[] base = sample(random, 8, 100_000, 0.05);
            double[] candidate = sample(random, 8, 120_000, 0.05);
            Difference d = Verdicts.paired(base, candidate, RULE);
            established += d.established() ? 1 : 0;
            covered += d.lower() != null && d.lower() <= 1.2 && 1.2 <= d.upper() ? 1 : 0;
        }
        assertThat(established).isGreaterThan(trials * 95 / 100);
        // a 95 % interval from an exact test: coverage at least 95 %, less the simulation's own error
        assertThat(covered).isGreaterThanOrEqualTo(trials * 93 / 100);
    }

    @Test
    void theUnpairedIntervalIsAboutTheRatioOfTheCandidateToTheBaseline() {
        double[] base = {100, 104, 98, 101, 97};
        double[] doubled = DoubleStream.of(base).map(v -> 2 * v).toArray();

        Difference d = Verdicts.unpaired(base, doubled, true, RULE);

        assertThat(d.ratio()).isCloseTo(2.0, within(1e-9));
        assertThat(d.lower()).isGreaterThan(1.8).isLessThan(2.0);
        assertThat(d.upper()).isGreaterThan(2.0).isLessThan(2.2);
        assertThat(d.pValue()).isCloseTo(2.0 / 252, within(1e-12)); // the two wholly apart: 2 ÷ C(10, 5)
        assertThat(d.decision()).isEqualTo(Decision.ESTABLISHED);
        assertThat(d.words()).startsWith("2.00× (95 % interval 1.").endsWith(", established");
    }

    @Test
    void sixPairsAllOneWayGiveTheExactSignedRankPAndFiveCannotDecide() {
        double[] base = {1, 1, 1, 1, 1, 1};
        double[] up = {1.10, 1.12, 1.09, 1.11, 1.13, 1.08};

        Difference six = Verdicts.paired(base, up, RULE);
        Difference five = Verdicts.paired(java.util.Arrays.copyOf(base, 5), java.util.Arrays.copyOf(up, 5), RULE);

        assertThat(six.pValue()).isCloseTo(2.0 / 64, within(1e-12));
        assertThat(six.decision()).isEqualTo(Decision.ESTABLISHED);
        assertThat(five.decision()).isEqualTo(Decision.TOO_FEW_REPETITIONS);
        assertThat(five.needed()).isEqualTo(6);
        assertThat(five.lower()).isNull();
        assertThat(five.words()).isEqualTo("1.11×, too few repetitions to decide (5; at least 6 needed)");
        // three unmatched repetitions a side can never reach 5 %: 2 ÷ C(6, 3) = 0.1
        Difference three = Verdicts.unpaired(new double[] {1, 1.01, 0.99}, new double[] {2, 2.01, 1.99}, true, RULE);
        assertThat(three.decision()).isEqualTo(Decision.TOO_FEW_REPETITIONS);
        assertThat(three.needed()).isEqualTo(4);
    }

    @Test
    void aSmallRealDifferenceIsBelowTheMinimumAndATightNullOneIsEquivalent() {
        double[] base = {100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9, 100.3};
        double[] plus2 = DoubleStream.of(base).map(v -> v * 1.02).toArray();
        for (int i = 0; i < plus2.length; i++) {
            plus2[i] *= 1 + 0.001 * (i % 3 - 1);
        }
        double[] same = new double[base.length];
        for (int i = 0; i < base.length; i++) {
            same[i] = base[i] * (1 + 0.001 * (i + 1) * (i % 2 == 0 ? 1 : -1)); // no shift either way
        }

        assertThat(Verdicts.paired(base, plus2, RULE).decision()).isEqualTo(Decision.BELOW_MINIMUM_EFFECT);
        Difference equivalent = Verdicts.paired(base, same, RULE);
        assertThat(equivalent.decision()).isEqualTo(Decision.EQUIVALENT);
        assertThat(equivalent.words()).endsWith("no difference beyond 5 %");
        // the same rule with no minimum effect establishes the 2 %
        assertThat(Verdicts.paired(base, plus2, new VerdictRule(0.05, 0)).decision())
                .isEqualTo(Decision.ESTABLISHED);
    }

    @Test
    void twoRunsMeasuredAtDifferentTimesAreNeverEstablishedHoweverFarApart() {
        double[] base = {100, 104, 98, 101, 97};
        double[] half = DoubleStream.of(base).map(v -> v / 2).toArray();

        Difference d = Verdicts.unpaired(base, half, false, RULE);

        assertThat(d.pValue()).isLessThan(0.05);
        assertThat(d.decision()).isEqualTo(Decision.DRIFT_NOT_CONTROLLED);
        assertThat(d.established()).isFalse();
    }

    @Test
    void holmAdjustsInOrderOfThePValuesAndJudgesTooFewAtTheFamilysStrictestThreshold() {
        List<Difference> raw = new ArrayList<>();
        for (double p : new double[] {0.01, 0.04, 0.03}) {
            raw.add(new Difference(1.5, 1.2, 1.8, 0.95, p, p, 1, true, true, 20, 20, "given", Decision.ESTABLISHED,
                    null, 0.05, null));
        }

        List<Difference> family = Verdicts.family(raw, RULE);

        assertThat(family.get(0).adjustedPValue()).isCloseTo(0.03, within(1e-12));
        assertThat(family.get(1).adjustedPValue()).isCloseTo(0.06, within(1e-12));
        assertThat(family.get(2).adjustedPValue()).isCloseTo(0.06, within(1e-12));
        assertThat(family).extracting(Difference::decision)
                .containsExactly(Decision.ESTABLISHED, Decision.NOT_ESTABLISHED, Decision.NOT_ESTABLISHED);
        assertThat(family).allSatisfy(d -> assertThat(d.family()).isEqualTo(3));

        // six pairs decide one comparison (2 ÷ 64 ≤ 0.05) but not one of three (0.05 ÷ 3): seven are needed
        double[] base = {1, 1, 1, 1, 1, 1};
        double[] up = {1.10, 1.12, 1.09, 1.11, 1.13, 1.08};
        Difference one = Verdicts.paired(base, up, RULE);
        List<Difference> three = Verdicts.family(List.of(one, one, one), RULE);
        assertThat(three).allSatisfy(d -> {
            assertThat(d.decision()).isEqualTo(Decision.TOO_FEW_REPETITIONS);
            assertThat(d.needed()).isEqualTo(7);
        });
    }

    @Test
    void aP99WhoseMedianIsAtTheBoundIsCalledUnderItInAtMostOneTrialInTwenty() {
        SplittableRandom random = new SplittableRandom(99);
        int trials = 2_000;
        int under = 0;
        int sweptWrongly = 0;
        double[] truth = {800, 950, 1_000, 1_200}; // a sweep's true p99 per rate, the last two not under the bound
        for (int t = 0; t < trials; t++) {
            under += Verdicts.under(sample(random, 7, 1_000, 0.2), 1_000, RULE).established() ? 1 : 0;
            // tested from the lowest rate up, stopped at the first that fails: each test at 5 %, no adjustment
            int highest = -1;
            while (highest + 1 < truth.length
                    && Verdicts.under(sample(random, 7, truth[highest + 1], 0.2), 1_000, RULE).established()) {
                highest++;
            }
            sweptWrongly += highest >= 2 ? 1 : 0;
        }
        assertThat(under).as("a p99 at the bound called under it").isLessThanOrEqualTo(trials / 20);
        assertThat(sweptWrongly).as("a sweep naming a rate not under the bound").isLessThanOrEqualTo(trials / 20);
    }

    @Test
    void aP99ATenthUnderTheBoundIsEstablishedFromFiveRepetitionsAndNeverFromFour() {
        SplittableRandom random = new SplittableRandom(3);
        int established = 0;
        for (int t = 0; t < 200; t++) {
            established += Verdicts.under(sample(random, 7, 900, 0.03), 1_000, RULE).established() ? 1 : 0;
        }
        assertThat(established).as("a true 10 % margin at 3 %% noise").isGreaterThanOrEqualTo(190);

        UnderBound five = Verdicts.under(new double[] {10, 11, 12, 13, 14}, 1_000, RULE);
        assertThat(five.pValue()).isEqualTo(1 / 32.0);
        assertThat(five.established()).isTrue();
        UnderBound four = Verdicts.under(new double[] {10, 11, 12, 13}, 1_000, RULE);
        assertThat(four.tooFew()).isTrue();
        assertThat(four.established()).isFalse();
        assertThat(four.words()).isEqualTo("too few repetitions to decide (4; at least 5 needed)");
        // one repetition over the bound among seven is not enough to deny it; four are
        assertThat(Verdicts.under(new double[] {900, 900, 900, 900, 900, 900, 1_050}, 1_000, RULE).established())
                .isTrue();
        assertThat(Verdicts.under(new double[] {900, 900, 900, 1_050, 1_050, 1_050, 1_050}, 1_000, RULE)
                .established()).isFalse();
    }
}
