package io.loopbench.engine;

import java.util.Collection;

/**
 * Median, minimum and maximum of one metric over repetitions (median of an even count: mean of the middle two),
 * in the metric's own unit.
 *
 * @param median the median over repetitions
 * @param min    the smallest repetition's value
 * @param max    the largest repetition's value
 */
public record Stat(double median, double min, double max) {

    public static Stat of(Collection<? extends Number> values) {
        double[] v = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
        if (v.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        int mid = v.length / 2;
        double median = v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
        return new Stat(median, v[0], v[v.length - 1]);
    }
}
