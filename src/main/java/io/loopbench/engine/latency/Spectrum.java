package io.loopbench.engine.latency;

import org.HdrHistogram.AbstractHistogram;

import java.util.ArrayList;
import java.util.List;

/**
 * Latency by percentile, HdrHistogram's percentile spectrum: the RTT at each of a ladder of percentiles (50 %, 90 %,
 * 99 %, 99.9 %, … up to the observation count's resolution) and at 100 %, the largest; drawn against 1 ÷ (1 − p) on
 * a log scale, so that each further nine of the tail takes the same width. Immutable.
 *
 * @param percentiles the percentiles, ascending, 100 last
 * @param us          the RTT at each, µs: the histogram's value at that percentile
 */
public record Spectrum(List<Double> percentiles, List<Double> us) {

    /** The ladder: halves, then a point at each nine and each half-nine of the tail. */
    static final double[] LADDER = {0, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.995, 99.999, 99.9995,
        99.9999, 99.99995, 99.99999};

    public Spectrum {
        percentiles = List.copyOf(percentiles);
        us = List.copyOf(us);
    }

    /**
     * The spectrum of a histogram of nanoseconds: the ladder's percentiles that its observations resolve (1 ÷ (1 − p)
     * at most its count), then 100; empty without observations.
     */
    public static Spectrum of(AbstractHistogram h) {
        List<Double> p = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        long count = h.getTotalCount();
        if (count > 0) {
            for (double level : LADDER) {
                if (level > 0 && 100 / (100 - level) > count) {
                    break;
                }
                p.add(level);
                values.add(h.getValueAtPercentile(level) / 1000.0);
            }
            p.add(100.0);
            values.add(h.getMaxValue() / 1000.0);
        }
        return new Spectrum(p, values);
    }
}
