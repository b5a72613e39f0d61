package io.loopbench.race;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a race spends its budget and its error rate, fixed before it starts. Rounds: every surviving candidate runs one
 * repetition per round. Looks: after the rounds in {@code lookRounds} the survivors are compared, each pair by
 * Wilcoxon's signed-rank test on its per-round log ratios (two-sided), and, with a p99 bound, each survivor's p99
 * against the bound (one-sided). Every such test, at every look, is taken at {@code testAlpha} = alpha ÷ (tests per look
 * × looks): by Bonferroni's inequality the chance that the race eliminates a candidate that is not worse, or calls two
 * candidates equivalent that are not, is at most alpha over the whole race, whichever candidates lead, whenever it
 * stops. The looks are spaced geometrically (each round about 1.5 × the last, the last at {@code maxRounds}), so that
 * a longer budget costs few more looks; the first is the first round at which the test can reject at that level at all
 * (every pair one way: p = 2 ÷ 2ⁿ). Immutable.
 *
 * @param candidates        candidates raced
 * @param testsPerLook      pairs (k(k − 1) ÷ 2), plus one bound test per candidate with a p99 bound
 * @param lookRounds        the rounds after which the survivors are compared, ascending
 * @param maxRounds         the most rounds the budget holds
 * @param alpha             the chance of any wrong elimination or equivalence over the whole race
 * @param testAlpha         the level of every test
 * @param repetitionSeconds the estimated wall time of one repetition, with which the budget was divided
 */
public record RacePlan(int candidates, int testsPerLook, List<Integer> lookRounds, int maxRounds, double alpha,
                       double testAlpha, double repetitionSeconds) {

    /** The most rounds a race may plan, whatever its budget. */
    public static final int MAX_ROUNDS = 200;
    /** Each look's round is at least this multiple of the last one's. */
    static final double LOOK_SPACING = 1.5;

    public RacePlan {
        lookRounds = List.copyOf(lookRounds);
    }

    /** The first round after which the survivors are compared. */
    public int firstLook() {
        return lookRounds.getFirst();
    }

    /** Whether the survivors are compared after {@code round}. */
    public boolean looksAfter(int round) {
        return lookRounds.contains(round);
    }

    /** The plan's method, in words. */
    public String method() {
        return String.format(Locale.ROOT, "paired Wilcoxon signed-rank tests on per-round log ratios (two-sided; "
                        + "p99 against its bound one-sided), each at %.2g: alpha %s ÷ (%d tests per look × %d looks, "
                        + "after rounds %s), Bonferroni", testAlpha, alpha, testsPerLook, lookRounds.size(),
                lookRounds);
    }

    /**
     * The plan for {@code candidates} candidates in {@code budgetSeconds}, each repetition taking
     * {@code repetitionSeconds}; null when the budget holds no round at which a test could decide.
     */
    public static RacePlan of(int candidates, boolean bound, double alpha, double budgetSeconds,
                              double repetitionSeconds) {
        int maxRounds = (int) Math.min(MAX_ROUNDS, Math.floor(budgetSeconds / (candidates * repetitionSeconds)));
        int tests = candidates * (candidates - 1) / 2 + (bound ? candidates : 0);
        for (int first = 1; first <= maxRounds; first++) {
            List<Integer> looks = looks(first, maxRounds);
            double testAlpha = alpha / ((double) tests * looks.size());
            if (2 / Math.pow(2, first) <= testAlpha) {
                return new RacePlan(candidates, tests, looks, maxRounds, alpha, testAlpha, repetitionSeconds);
            }
        }
        return null;
    }

    /** Rounds first, ~1.5 × first, … and last. */
    static List<Integer> looks(int first, int last) {
        List<Integer> out = new ArrayList<>();
        for (int r = first; r < last; r = Math.max(r + 1, (int) Math.ceil(r * LOOK_SPACING))) {
            out.add(r);
        }
        out.add(last);
        return out;
    }

    /** The smallest budget for which {@link #of} gives a plan, in whole seconds. */
    public static double minimumBudget(int candidates, boolean bound, double alpha, double repetitionSeconds) {
        for (int rounds = 1; rounds <= MAX_ROUNDS; rounds++) {
            double budget = rounds * candidates * repetitionSeconds;
            if (of(candidates, bound, alpha, budget + 1e-9, repetitionSeconds) != null) {
                return Math.ceil(budget);
            }
        }
        return Double.POSITIVE_INFINITY;
    }
}
