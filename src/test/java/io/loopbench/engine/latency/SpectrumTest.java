package io.loopbench.engine.latency;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SpectrumTest {

    @Test
    void theSpectrumsPointsAreTheHistogramsPercentilesUpToWhatItsCountResolves() {
        Histogram h = LatencyHistograms.create();
        for (int i = 1; i <= 10_000; i++) {
            LatencyHistograms.record(h, 1000L * i); // 1 µs … 10 ms, evenly
        }

        Spectrum s = Spectrum.of(h);

        // 10,000 observations resolve 1 / (1 − p) up to 10,000: 99.99 % is the last ladder step
        assertThat(s.percentiles()).containsExactly(0.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
                100.0);
        for (int i = 0; i < s.percentiles().size() - 1; i++) {
            assertThat(s.us().get(i)).isEqualTo(h.getValueAtPercentile(s.percentiles().get(i)) / 1000.0);
        }
        assertThat(s.us().getLast()).isEqualTo(h.getMaxValue() / 1000.0);
        assertThat(s.us().get(1)).isBetween(4990.0, 5010.0);
        assertThat(s.us()).isSorted();
    }

    @Test
    void anEmptyHistogramHasNoSpectrum() {
        Spectrum s = Spectrum.of(LatencyHistograms.create());

        assertThat(s.percentiles()).isEmpty();
        assertThat(s.us()).isEmpty();
    }
}
