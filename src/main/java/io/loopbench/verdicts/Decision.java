package io.loopbench.verdicts;

import io.loopbench.engine.spec.Labeled;

/** What a {@link Difference} lets a user conclude, by its {@link VerdictRule}. */
public enum Decision implements Labeled {
    /**
     * The test rejects "no difference" (a rank test Holm-adjusted; a confidence sequence's whole interval, beyond the
     * drift bound between separate runs where there is one) and the estimate changes by at least the minimum.
     */
    ESTABLISHED,
    /** A difference the test establishes, smaller than the minimum effect: real, too small to act on. */
    BELOW_MINIMUM_EFFECT,
    /** The whole interval lies within the minimum effect of 1: no difference of that size. */
    EQUIVALENT,
    /** Neither a difference nor its absence is established. */
    NOT_ESTABLISHED,
    /** Too few repetitions for the test to ever reject at the family's error rate. */
    TOO_FEW_REPETITIONS,
    /**
     * The test rejects, but the two were measured at different times, not alternated repetition by repetition: the
     * machine's drift between them is not controlled (a rank test), or the interval does not clear that drift's bound
     * (a confidence sequence), so the difference is not established.
     */
    DRIFT_NOT_CONTROLLED
}
