package io.loopbench.cluster;

import io.loopbench.engine.RepetitionResult;

import java.util.List;

/**
 * One repetition across hosts: its merged result, what each agent did, and how simultaneous its start was.
 * Immutable.
 *
 * @param result the agents' parts merged exactly: every agent's counters summed and every RTT in one histogram
 *               ({@link MergedParts}); CPU, GC and memory are every agent's process's added up, the server
 *               agent's included (both ends, as a run on one host counts both peers; each agent's own are in
 *               {@code agents}); JIT every agent's added up (quiet only where every JVM was); fairness over every
 *               agent's clients, exactly, judged across agents too; warnings every agent's, named, and the window fill
 *               on the merged figures; the measured phase's timeline merged interval by interval
 *               ({@link MergedTimeline})
 * @param agents one row per agent, by name (empty when the repetition failed before its measured phase)
 * @param start  the measured phase's start across the client agents; null when it failed before
 */
public record DistributedRepetition(RepetitionResult result, List<AgentShare> agents, StartReport start) {

    public DistributedRepetition {
        agents = List.copyOf(agents);
    }
}
