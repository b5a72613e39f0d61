package io.loopbench.runs;

import io.loopbench.cluster.AgentShare;
import io.loopbench.cluster.StartReport;

import java.util.List;

/**
 * What a repetition across hosts adds to its merged result: one row per agent, and the measured phase's start skew.
 * Immutable.
 *
 * @param repetition the repetition (1-based), as in the run's {@code repetitions}
 * @param agents     each agent's server, clients, messages, round trips/s, p99 and start, by name; empty when the
 *                   repetition failed before its measured phase
 * @param start      each client agent's start and the skew between them; null when it failed before
 */
public record HostsRepetition(int repetition, List<AgentShare> agents, StartReport start) {

    public HostsRepetition {
        agents = agents == null ? List.of() : List.copyOf(agents);
    }
}
