package io.loopbench.verdicts;

import java.util.Locale;

/**
 * Whether a metric's repetitions are established under a bound: a one-sided test of "at or above the bound" against
 * "under it", so that the chance of calling a metric under the bound that is not is at most the rule's alpha.
 *
 * @param pValue      the test's one-sided p-value
 * @param repetitions how many repetitions it tested
 * @param needed      the fewest repetitions that can ever reject at the rule's alpha
 * @param established whether the test rejected "at or above the bound"
 * @param method      the test, in words
 */
public record UnderBound(double pValue, int repetitions, int needed, boolean established, String method) {

    /** Whether these repetitions could never have established it, whatever their values. */
    public boolean tooFew() {
        return repetitions < needed;
    }

    /** "p = 0.016, 6 repetitions"; "too few repetitions to decide (3; at least 5 needed)". */
    public String words() {
        return tooFew()
                ? String.format(Locale.ROOT, "too few repetitions to decide (%d; at least %d needed)", repetitions,
                        needed)
                : String.format(Locale.ROOT, "p = %.3f, %d repetitions", pValue, repetitions);
    }
}
