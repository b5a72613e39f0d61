package io.loopbench.cluster;

import io.loopbench.engine.client.PhaseCounts;

/**
 * What one agent's clients did in a measured phase, as it sends it to the coordinator.
 *
 * @param member           the agent
 * @param counts           its clients' counters, summed
 * @param latencyHistogram its clients' RTTs, each on its own client's monotonic clock, as one HdrHistogram in
 *                         {@code LatencyHistograms.encode}'s form
 */
public record AgentPart(String member, PhaseCounts counts, String latencyHistogram) {
}
