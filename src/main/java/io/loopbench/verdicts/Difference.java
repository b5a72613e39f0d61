package io.loopbench.verdicts;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * One metric of a candidate against a baseline, decided by a {@link VerdictRule} ({@link Verdicts} makes them).
 * Immutable.
 *
 * @param ratio          candidate ÷ baseline: by a confidence sequence, the ratio of geometric means (the mean log
 *                       ratio when paired); by a rank test, the Hodges–Lehmann estimate on logarithms (the median of
 *                       the per-pair log ratios' Walsh averages when paired, of all candidate-by-baseline log ratios
 *                       when not)
 * @param lower          lower end of the ratio's interval at {@code coverage} (a confidence sequence's, or the set a
 *                       rank test does not reject at 95 %); null when the samples are too small to bound it
 * @param upper          upper end of that interval; null likewise
 * @param coverage       the interval's coverage (0.95 for a rank test; 1 − the test's level for a confidence sequence);
 *                       null in records from before it was stored, read as 0.95
 * @param pValue         two-sided p of "no difference": a rank test's (exact for small samples without ties), or a
 *                       confidence sequence's anytime-valid one (1 ÷ its mixture's e-value)
 * @param adjustedPValue the p-value adjusted over the {@code family} (Holm for rank tests; × the family for a
 *                       confidence sequence, whose decision is by its interval)
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
 * @param driftBound     for runs measured at different times: the machine's drift between separate runs (0.1: ±10 %),
 *                       which the whole interval must clear to establish a difference; null otherwise
 */
public record Difference(double ratio, Double lower, Double upper, Double coverage, double pValue, double adjustedPValue, int family,
                         boolean paired, boolean controlled, int baselineSize, int candidateSize, String method,
                         Decision decision, Integer needed, double minimumEffect,
                         Double driftBound) {

    /** The same difference, decided within a family of {@code size} comparisons (its level already the share). */
    public Difference inFamily(int size) {
        return new Difference(ratio, lower, upper, coverage, pValue, Math.min(1, pValue * size), size, paired,
                controlled, baselineSize, candidateSize, method, decision, needed, minimumEffect, driftBound);
    }

    /** Whether the difference is established by the rule (interval excludes 1, effect over the minimum). */
    public boolean established() {
        return decision == Decision.ESTABLISHED;
    }

    /** A coverage as a percentage to four significant digits, without trailing zeros: "95", "98.33". */
    public static String percent(double coverage) {
        return new BigDecimal(100 * coverage).round(new MathContext(4)).stripTrailingZeros().toPlainString();
    }

    /**
     * The ratio, its interval and the decision in words: "1.23× (95 % interval 1.15–1.31), established";
     * "1.30×, too few repetitions to decide (3; at least 4 needed)".
     */
    public String words() {
        String head = String.format(Locale.ROOT, "%.2f×", ratio)
                + (lower == null || upper == null ? ""
                : String.format(Locale.ROOT, " (%s %% interval %.2f–%.2f)",
                percent(coverage == null ? 0.95 : coverage), lower, upper));
        String minimum = String.format(Locale.ROOT, "%.0f %%", minimumEffect * 100);
        return head + ", " + switch (decision) {
            case ESTABLISHED -> driftBound == null ? "established" : String.format(Locale.ROOT,
                    "established beyond the ±%.0f %% that separate runs drift on this machine", driftBound * 100);
            case BELOW_MINIMUM_EFFECT -> "a difference under the " + minimum + " minimum effect";
            case EQUIVALENT -> "no difference beyond " + minimum;
            case NOT_ESTABLISHED -> "not established";
            case TOO_FEW_REPETITIONS -> "too few repetitions to decide (" + Math.min(baselineSize, candidateSize)
                    + "; at least " + needed + " needed)";
            case DRIFT_NOT_CONTROLLED -> driftBound == null
                    ? "not established: measured at different times, so drift is not controlled"
                    : String.format(Locale.ROOT, "not established: within the ±%.0f %% that separate runs drift on "
                    + "this machine", driftBound * 100);
        };
    }
}
