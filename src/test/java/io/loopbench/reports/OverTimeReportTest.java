package io.loopbench.reports;

import io.loopbench.verdicts.VerdictRule;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.Stat;
import io.loopbench.engine.spec.RunSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The report's timelines and spectra: the median repetition shown, the others linked, the charts drawn. */
class OverTimeReportTest {

    private static final RunSpec SPEC = RunSpec.builder().build();

    private static CaseResult threeRepetitions() {
        List<RepetitionResult> reps = List.of(ReportFixtures.withTimeline(1, 30_000, 50),
                ReportFixtures.withTimeline(2, 10_000, 60), ReportFixtures.withTimeline(3, 20_000, 40));
        CaseResult ok = ReportFixtures.ok(SPEC, new Stat(20_000, 10_000, 30_000), new Stat(50, 40, 60));
        return new CaseResult(SPEC, ok.transport(), ok.summary(), reps, null);
    }

    @Test
    void theMedianRepetitionIsShownOverTimeTheOthersLinkedAndTheCaseBySpectrum() {
        ReportSource s = ReportRulesTest.source("m", List.of(threeRepetitions()));

        String md = ReportRenderer.markdown(s, "charts/", VerdictRule.DEFAULT);

        assertThat(md).contains("## Over time and by percentile")
                .contains("![Repetition 3 over time, TCP / 1024 B / 16 clients × window 16 / no added computation "
                        + "/ shared 1](charts/timeline-1-3.svg)")
                .contains("Repetition 3 is the median by throughput; the others: [repetition 1](charts/timeline-1-1"
                        + ".svg), [repetition 2](charts/timeline-1-2.svg).")
                .contains("](charts/spectrum-1.svg)");
        assertThat(ReportCharts.chartNames(s)).contains("timeline-1-1", "timeline-1-2", "timeline-1-3",
                "spectrum-1");
    }

    @Test
    void theTimelineChartDrawsThroughputP99ThePhaseBoundaryAndTheMarks() {
        ReportSource s = ReportRulesTest.source("m", List.of(threeRepetitions()));

        String svg = ReportCharts.chart(s, "timeline-1-2").orElseThrow();

        assertThat(svg).startsWith("<?xml").contains("<svg", "Repetition 2 over time", "round trips per second",
                "p99 RTT (µs)", "measured →", "GC pause");
        assertThat(ReportCharts.chart(s, "timeline-1-4")).isEmpty();
        assertThat(ReportCharts.chart(s, "timeline-2-1")).isEmpty();
        assertThat(ReportCharts.chart(s, "timeline-x")).isEmpty();
    }

    @Test
    void theSpectrumChartOverlaysEachRepetitionAndThePooledOneOnAPercentileScale() {
        CaseResult c = threeRepetitions();
        Spectra spectra = Spectra.of(c);

        assertThat(spectra.series()).extracting(Spectra.Series::name)
                .containsExactly("repetition 1", "repetition 2", "repetition 3", "pooled");
        // the pooled 50 % lies between the repetitions' (40, 50, 60 µs, weighted by their counts)
        assertThat(spectra.pooled().us().get(1)).isEqualTo(50.0 * 1.0005, org.assertj.core.data.Offset.offset(0.1));
        assertThat(spectra.pooled().us().getLast()).isGreaterThanOrEqualTo(600 * 0.999);
        String svg = ReportCharts.chart(ReportRulesTest.source("m", List.of(c)), "spectrum-1").orElseThrow();
        assertThat(svg).contains("<svg", "Latency by percentile", "pooled", "each step right is one more nine");
    }
}
