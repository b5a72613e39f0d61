package io.loopbench.verdicts;

import java.util.Locale;

/**
 * One metric of a candidate against a baseline, decided by a {@link VerdictRule} ({@link Verdicts} makes them).
 * Immutable.
 *
 * @param ratio          candidate ÷ baseline: the Hodges–Lehmann estimate on logarithms (the median of the per-pair
 *                       log ratios' Walsh averages when paired, of all candidate-by-baseline log ratios when not)
 * @param lower          lower end of the ratio's 95 % interval (1 − alpha, by inverting the same rank test; not
 *                       adjusted for the family); null when the samples are too small to bound it
 * @param upper          upper end of that interval; null likewise
 * @param pValue         the rank test's two-sided p of "no difference" (exact for small samples without ties)
 * @param adjustedPValue the p-value Holm-adjusted over the {@code family}; what the decision uses
 * @param family         how many comparisons were decided together
 * @param paired         whether repetition r of one side was matched with repetition r of the other
 * @param controlled     whether the two sides ran alternated, repetition by repetition, so that drift cancels
 * @param baselineSize   baseline repetitions (pairs, when paired)
 * @param candidateSize  candidate repetitions (pairs, when paired)
 * @param method         the test in words
 * @param decision       what the figures let a user conclude
 * @param needed         for {@link Decision#TOO_FEW_REPETITIONS}: repetitions per side the rule needs at this family
 *                       size; else null
 * @param minimumEffect  the rule's minimum effect, for the words
 */
public record Difference(double ratio, Double lower, Double upper, double pValue, double adjustedPValue, int family,
                         boolean paired, boolean controlled, int baselineSize, int candidateSize, String method,
                         Decision decision, Integer needed, double minimumEffect) {

    /** Whether the difference is established by the rule (interval excludes 1, effect over the minimum). */
    public boolean established() {
        return decision == Decision.ESTABLISHED;
    }

    /**
     * The ratio, its interval and the decision in words: "1.23× (95 % interval 1.15–1.31), established";
     * "1.30×, too few repetitions to decide (3; at least 4 needed)".
     */
    public String words() {
        String head = String.format(Locale.ROOT, "%.2f×", ratio)
                + (lower == null || upper == null ? ""
                : String.format(Locale.ROOT, " (95 %% interval %.2f–%.2f)", lower, upper));
        String minimum = String.format(Locale.ROOT, "%.0f %%", minimumEffect * 100);
        return head + ", " + switch (decision) {
            case ESTABLISHED -> "established";
            case BELOW_MINIMUM_EFFECT -> "a difference under the " + minimum + " minimum effect";
            case EQUIVALENT -> "no difference beyond " + minimum;
            case NOT_ESTABLISHED -> "not established";
            case TOO_FEW_REPETITIONS -> "too few repetitions to decide (" + Math.min(baselineSize, candidateSize)
                    + "; at least " + needed + " needed)";
            case DRIFT_NOT_CONTROLLED -> "not established: measured at different times, so drift is not controlled";
        };
    }
}
