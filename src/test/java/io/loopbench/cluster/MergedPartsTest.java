package io.loopbench.cluster;

import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The merge of agents' parts is the histogram of the union of their RTTs, and the sum of their counters. */
class MergedPartsTest {

    static PhaseCounts counts(long messages, String firstError) {
        return new PhaseCounts(messages + 1, messages, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, firstError);
    }

    @Test
    void mergedEqualsTheHistogramOfEveryValueAnyPartRecorded() {
        Random random = new Random(15);
        Histogram union = LatencyHistograms.create();
        String[] names = {"c-agent", "a-agent", "b-agent"};
        long[] scales = {20_000, 80_000, 3_000_000}; // three very different hosts
        List<AgentPart> parts = new java.util.ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            Histogram h = LatencyHistograms.create();
            int n = 10_000 * (i + 1);
            for (int k = 0; k < n; k++) {
                long rtt = (long) (scales[i] * (1 + random.nextExponential()));
                LatencyHistograms.record(h, rtt);
                LatencyHistograms.record(union, rtt);
            }
            parts.add(new AgentPart(names[i], 1, 1.0, counts(n, i == 1 ? null : "error of " + names[i]),
                    LatencyHistograms.encode(h), null, null, null, null));
        }
        MergedParts merged = MergedParts.of(parts, LatencyMode.MESSAGE);

        Histogram m = LatencyHistograms.decode(merged.latencyHistogram());
        assertThat(m).isEqualTo(union);
        assertThat(m.getTotalCount()).isEqualTo(60_000);
        assertThat(merged.latency()).isEqualTo(LatencyHistograms.latency(LatencyMode.MESSAGE, union));
        // the merged p99 is the union's, far from any average of the parts' p99s
        assertThat(merged.latency().p99Us()).isEqualTo(union.getValueAtPercentile(99) / 1000.0);
        assertThat(merged.counts().messages()).isEqualTo(60_000);
        assertThat(merged.counts().messagesSent()).isEqualTo(60_003);
        assertThat(merged.counts().orderErrors()).isEqualTo(3);
        assertThat(merged.counts().lostMessages()).isEqualTo(6);
        assertThat(merged.counts().firstError()).isEqualTo("error of b-agent");
        assertThat(merged.parts()).extracting(AgentPart::member).containsExactly("a-agent", "b-agent", "c-agent");
    }
}
