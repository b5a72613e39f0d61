package io.loopbench.verdicts;

import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

import java.util.Arrays;
import java.util.Locale;

/**
 * An anytime-valid confidence sequence for the mean of per-round log ratios, so that a comparison may be looked at
 * after every round and stopped as soon as it decides, its error rate holding over every look and any stopping rule.
 * The boundary is the two-sided normal mixture of Howard, Ramdas, McAuliffe and Sekhon ("Time-uniform, nonparametric,
 * nonasymptotic confidence sequences", Annals of Statistics 2021): for observations whose noise is sub-Gaussian with
 * scale σ, the sum S_n of n centred observations stays within ±√((nσ² + ρ) ln((nσ² + ρ) ÷ (ρ a²))) at every n at
 * once with probability 1 − a (by Ville's inequality on the mixture martingale √(ρ ÷ (nσ² + ρ)) exp(S_n² ÷ (2(nσ² +
 * ρ))), whose value is the look's e-value).
 *
 * <p>The scale is not known; it is taken as the larger of the machine's noise floor for the metric (calibrated from
 * real A/A repetitions, {@link NoiseFloor}) and the data's own spread bounded from above (√((n − 1) s² ÷ χ²ₙ₋₁(0.3))),
 * so that a load noisier than the floor widens its own interval. Two guards can only veto a decision, never make one:
 * it needs two rounds, and it must survive leaving out any one round (at the same scale), its most extreme
 * included. The method's error rate is proven by simulation (heavy tails, outliers and unequal
 * variances included) in ConfidenceSequenceTest and recorded in docs/service.md. Stateless.
 */
public final class ConfidenceSequence {

    /** The χ² quantile at which the data's spread bounds the scale from above. */
    static final double SPREAD_QUANTILE = 0.3;
    /** The fewest rounds that can decide: with one, the decision could not survive leaving out a round. */
    public static final int LEAST_ROUNDS = 2;

    private ConfidenceSequence() {
    }

    /**
     * The noise a comparison assumes.
     *
     * @param floor       the smallest scale (standard deviation) of one observation, on logarithms
     * @param tunedRounds the round at which the interval is made narrowest (the mixture's ρ = tunedRounds × floor²)
     */
    public record Noise(double floor, double tunedRounds) {

        public Noise {
            if (!(floor > 0 && tunedRounds > 0)) {
                throw new IllegalArgumentException("noise needs a positive floor and tuned rounds, was " + floor
                        + " and " + tunedRounds);
            }
        }

        double rho() {
            return tunedRounds * floor * floor;
        }
    }

    /**
     * One look at observations: the estimate (their mean) and the interval, on logarithms.
     *
     * @param n        observations
     * @param estimate their mean
     * @param lower    the interval's lower end
     * @param upper    its upper end
     * @param scale    the scale used
     * @param eValue   the mixture martingale's value against a mean of 0: 1 ÷ it is an anytime-valid p-value
     */
    public record Look(int n, double estimate, double lower, double upper, double scale, double eValue) {

        /** +1 when the whole interval lies above {@code bound}, −1 when it lies below −{@code bound}, else 0. */
        int beyond(double bound) {
            return lower > bound ? 1 : upper < -bound ? -1 : 0;
        }

        boolean within(double bound) {
            return lower > -bound && upper < bound;
        }
    }

    /**
     * The interval at coverage 1 − {@code level} for mean({@code x}) − mean({@code y}) (y empty: the mean of x). Two
     * unmatched samples count as 2 ÷ (1 ÷ |x| + 1 ÷ |y|) rounds, each of their values having the scale of a round's
     * log ratio ÷ √2 (a ratio being the difference of two repetitions).
     */
    public static Look look(double[] x, double[] y, Noise noise, double level) {
        return look(x, y, scale(x, y, noise), noise, level);
    }

    private static Look look(double[] x, double[] y, double scale, Noise noise, double level) {
        double n = y.length == 0 ? x.length : 2 / (1.0 / x.length + 1.0 / y.length);
        double mean = mean(x) - (y.length == 0 ? 0 : mean(y));
        double v = n * scale * scale + noise.rho();
        double half = x.length == 0 ? Double.POSITIVE_INFINITY
                : Math.sqrt(v * Math.log(v / (noise.rho() * level * level))) / n;
        double sum = n * mean;
        double e = Math.sqrt(noise.rho() / v) * Math.exp(sum * sum / (2 * v));
        return new Look(x.length + y.length, mean, mean - half, mean + half, scale, e);
    }

    /**
     * A round's scale: the floor, or the data's spread bounded from above (the squares about each sample's mean,
     * over χ² at {@link #SPREAD_QUANTILE}; unmatched, a repetition's spread × √2) where that is larger.
     */
    static double scale(double[] x, double[] y, Noise noise) {
        int df = x.length - 1 + Math.max(0, y.length - 1);
        if (df < 1 || (y.length > 0 && x.length < 1)) {
            return noise.floor();
        }
        double ss = squares(x) + squares(y);
        double quantile = ChiSquaredDistribution.of(df).inverseCumulativeProbability(SPREAD_QUANTILE);
        double spread = Math.sqrt(ss / quantile) * (y.length == 0 ? 1 : Math.sqrt(2));
        return Math.max(noise.floor(), spread);
    }

    /**
     * Whether a decision — the interval beyond ±{@code bound} in {@code direction} (+1, −1), or within ±{@code bound}
     * ({@code direction} 0) — survives the guards: two values on each side at least, and the same decision with any
     * one value left out, at the same scale.
     */
    static boolean survives(double[] x, double[] y, Look look, Noise noise, double level, int direction,
                            double bound) {
        if (x.length < LEAST_ROUNDS || (y.length > 0 && y.length < LEAST_ROUNDS)) {
            return false;
        }
        for (int i = 0; i < x.length + y.length; i++) {
            double[] rx = i < x.length ? without(x, i) : x;
            double[] ry = i < x.length ? y : without(y, i - x.length);
            Look w = look(rx, ry, look.scale(), noise, level);
            if (direction != 0 ? w.beyond(bound) != direction : !w.within(bound)) {
                return false;
            }
        }
        return true;
    }

    private static double[] without(double[] values, int index) {
        double[] out = new double[values.length - 1];
        System.arraycopy(values, 0, out, 0, index);
        System.arraycopy(values, index + 1, out, index, values.length - index - 1);
        return out;
    }

    private static double mean(double[] values) {
        return values.length == 0 ? 0 : Arrays.stream(values).sum() / values.length;
    }

    private static double squares(double[] values) {
        double m = mean(values);
        return Arrays.stream(values).map(v -> (v - m) * (v - m)).sum();
    }

    /** The method in words, for a Difference and reports. */
    static String method(String what, int n, Noise noise, double scale, double level) {
        return String.format(Locale.ROOT, "anytime-valid normal-mixture confidence sequence (Howard et al. 2021) on %d "
                        + "%s at %s %% coverage, scale %.3f (floor %.3f, or the data's spread where larger), "
                        + "decisions surviving any one round left out", n, what,
                Difference.percent(1 - level), scale, noise.floor());
    }
}
