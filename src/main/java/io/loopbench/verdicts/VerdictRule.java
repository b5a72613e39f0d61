package io.loopbench.verdicts;

/**
 * The rule by which a difference between two sets of repetitions is called established: a two-sided test at
 * {@code alpha} — a rank test Holm-adjusted over the comparisons a report or an answer prints together, or a
 * confidence sequence whose caller has already divided alpha over them (so that {@code alpha} is the chance that any
 * of them is called established when nothing differs) — and an effect of at least {@code minimumEffect}. Immutable.
 *
 * @param alpha         family-wise error rate, in (0, 0.5]; 0.05 by default
 * @param minimumEffect the smallest change of a ratio that counts, as a fraction (0.05: a ratio of at least 1.05 or at
 *                      most 1 ÷ 1.05), in [0, 1]; 0.05 by default
 */
public record VerdictRule(double alpha, double minimumEffect) {

    public static final VerdictRule DEFAULT = new VerdictRule(0.05, 0.05);

    public VerdictRule {
        if (!(alpha > 0 && alpha <= 0.5)) {
            throw new IllegalArgumentException("alpha must be in (0, 0.5], was " + alpha);
        }
        if (!(minimumEffect >= 0 && minimumEffect <= 1)) {
            throw new IllegalArgumentException("minimumEffect must be in [0, 1], was " + minimumEffect);
        }
    }

    /** Whether a ratio changes by at least the minimum effect, either way. */
    boolean exceedsMinimum(double ratio) {
        return Math.abs(Math.log(ratio)) >= Math.log1p(minimumEffect);
    }

    /** Whether the whole interval lies within the minimum effect of 1: no difference of that size. */
    boolean withinMinimum(double lower, double upper) {
        double bound = Math.log1p(minimumEffect);
        return Math.log(lower) > -bound && Math.log(upper) < bound;
    }
}
