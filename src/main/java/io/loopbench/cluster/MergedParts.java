package io.loopbench.cluster;

import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Several agents' parts of one measured phase as one: counters summed, histograms added bucket by bucket, so that the
 * percentiles are those of every RTT any agent recorded (not an average of the agents' percentiles).
 *
 * @param counts           every agent's counters summed (the first error: the first agent's, by name, that had one)
 * @param latencyHistogram every RTT, encoded as the parts are
 * @param latency          its figures
 * @param parts            each agent's part, by member name, as it came
 */
public record MergedParts(PhaseCounts counts, String latencyHistogram, Latency latency, List<AgentPart> parts) {

    /** The parts (at least one), merged exactly. */
    public static MergedParts of(List<AgentPart> parts, LatencyMode mode) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no parts to merge");
        }
        List<AgentPart> sorted = new ArrayList<>(parts);
        sorted.sort(Comparator.comparing(AgentPart::member));
        PhaseCounts counts = PhaseCounts.NONE;
        List<Histogram> histograms = new ArrayList<>();
        for (AgentPart p : sorted) {
            counts = counts.plus(p.counts());
            histograms.add(LatencyHistograms.decode(p.latencyHistogram()));
        }
        Histogram all = LatencyHistograms.merged(histograms);
        return new MergedParts(counts, LatencyHistograms.encode(all), LatencyHistograms.latency(mode, all),
                List.copyOf(sorted));
    }
}
