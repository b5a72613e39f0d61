package io.loopbench.cluster;

import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.timeline.Timeline;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Two client agents' timelines merged interval by interval: counts and marks added up, percentiles those of the
 * union of the intervals' RTTs, the warm-ups left out, and an agent with fewer intervals counted where it has them.
 */
class MergedTimelineTest {

    private static final Random RANDOM = new Random(11);

    @Test
    void intervalIOfTheMergeIsIntervalIOfEveryAgentsMeasuredPhase() {
        List<Histogram> aRtts = rtts(3, 50_000, 200_000);
        List<Histogram> bRtts = rtts(2, 400_000, 2_000_000);
        AgentPart a = part("agent-a", timeline(2, new long[] {7, 8, 900, 1000, 1100}, new int[] {1, 1, 0, 2, 0}),
                aRtts);
        AgentPart b = part("agent-b", timeline(1, new long[] {5, 600, 700}, new int[] {0, 1, 1}), bRtts);
        AgentPart server = new AgentPart("agent-s", 0, 1.0, PhaseCounts.NONE,
                LatencyHistograms.encode(LatencyHistograms.create()), null, null, null, null, null, null, null, null,
                null, null, null, null, null, null);

        Timeline merged = MergedTimeline.of(List.of(server, a, b));

        assertThat(merged.size()).isEqualTo(3);
        assertThat(merged.warmupIntervals()).as("each agent's warm-up was its own").isZero();
        assertThat(merged.startSeconds()).containsExactly(0.0, 0.1, 0.2);
        assertThat(merged.roundTrips()).containsExactly(900L + 600, 1000L + 700, 1100L);
        assertThat(merged.roundTripsPerSecond()).containsExactly(9000.0 + 6000, 10000.0 + 7000, 11000.0);
        assertThat(merged.gcCollections()).containsExactly(0 + 1, 2 + 1, 0);
        assertThat(merged.seconds()).containsExactly(0.1, 0.1, 0.1);
        for (int i = 0; i < 3; i++) {
            Histogram union = LatencyHistograms.create();
            union.add(aRtts.get(i));
            if (i < bRtts.size()) {
                union.add(bRtts.get(i));
            }
            assertThat(merged.p50Us().get(i)).isCloseTo(union.getValueAtPercentile(50) / 1000.0, within(1e-9));
            assertThat(merged.p99Us().get(i)).isCloseTo(union.getValueAtPercentile(99) / 1000.0, within(1e-9));
            assertThat(merged.maxUs().get(i)).isCloseTo(union.getMaxValue() / 1000.0, within(1e-9));
        }
        // agent-b's slower RTTs lift the first two intervals' p99 above anything agent-a recorded
        assertThat(merged.p99Us().get(0)).isGreaterThan(aRtts.get(0).getMaxValue() / 1000.0);
        assertThat(merged.lateMessages()).as("closed load").isNull();
    }

    @Test
    void noMergedTimelineWhenAClientAgentSentNone() {
        AgentPart a = part("agent-a", timeline(0, new long[] {10, 10}, new int[] {0, 0}), rtts(2, 1_000, 2_000));
        AgentPart withoutRtts = part("agent-b", timeline(0, new long[] {10, 10}, new int[] {0, 0}), List.of());
        assertThat(MergedTimeline.of(List.of(a, withoutRtts))).isNull();
        assertThat(MergedTimeline.of(List.of(a))).isNotNull();
    }

    private static List<Histogram> rtts(int intervals, long lowNanos, long highNanos) {
        List<Histogram> all = new ArrayList<>();
        for (int i = 0; i < intervals; i++) {
            Histogram h = LatencyHistograms.create();
            for (int k = 0; k < 500; k++) {
                h.recordValue(lowNanos + (long) (RANDOM.nextDouble() * (highNanos - lowNanos)));
            }
            all.add(h);
        }
        return all;
    }

    /** A timeline of 100 ms intervals, the first {@code warmup} of them the warm-up's. */
    private static Timeline timeline(int warmup, long[] roundTrips, int[] gc) {
        int n = roundTrips.length;
        List<Double> start = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            start.add(i * 0.1);
        }
        List<Double> zeros = Collections.nCopies(n, 0.0);
        List<Integer> none = Collections.nCopies(n, 0);
        return new Timeline(100, warmup, start, Collections.nCopies(n, 0.1),
                LongStream.of(roundTrips).boxed().toList(), LongStream.of(roundTrips).mapToObj(r -> r * 10.0).toList(),
                zeros, zeros, zeros, java.util.Arrays.stream(gc).boxed().toList(), zeros, none, zeros, none, null, null);
    }

    private static AgentPart part(String name, Timeline timeline, List<Histogram> measuredRtts) {
        return new AgentPart(name, 2, 1.0, PhaseCounts.NONE, LatencyHistograms.encode(LatencyHistograms.create()),
                null, null, null, null, null, null, null, null, null, timeline,
                measuredRtts.stream().map(LatencyHistograms::encode).toList(), null, null, null);
    }
}
