package io.loopbench.reports;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.Spectrum;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/**
 * The percentile spectra of one case, from its repetitions' stored histograms: each passed repetition's, then the
 * pooled one (every repetition's observations merged). Repetitions stored before histograms were have none, and a
 * case with none of them has no series. Immutable.
 *
 * @param series each repetition's spectrum in index order, then {@code pooled}
 */
public record Spectra(List<Series> series) {

    /**
     * @param name       {@code repetition N} or {@code pooled}
     * @param repetition N; null for the pooled spectrum
     * @param spectrum   latency by percentile
     */
    public record Series(String name, Integer repetition, Spectrum spectrum) {
    }

    public Spectra {
        series = List.copyOf(series);
    }

    public static Spectra of(CaseResult c) {
        List<Series> series = new ArrayList<>();
        List<Histogram> histograms = new ArrayList<>();
        for (RepetitionResult r : c.repetitions()) {
            if (r.ok() && r.rtt().latencyHistogram() != null) {
                Histogram h = LatencyHistograms.decode(r.rtt().latencyHistogram());
                histograms.add(h);
                series.add(new Series("repetition " + r.repetition(), r.repetition(), Spectrum.of(h)));
            }
        }
        if (!histograms.isEmpty()) {
            series.add(new Series("pooled", null, Spectrum.of(LatencyHistograms.merged(histograms))));
        }
        return new Spectra(series);
    }

    /** The pooled spectrum; null when there is none. */
    public Spectrum pooled() {
        return series.isEmpty() ? null : series.getLast().spectrum();
    }
}
