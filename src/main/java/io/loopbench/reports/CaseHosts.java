package io.loopbench.reports;

import io.loopbench.cluster.Placement;
import io.loopbench.runs.HostsRepetition;

import java.util.List;

/**
 * A case that ran across hosts, for the report's "Across hosts" section. Immutable.
 *
 * @param caseNumber  the case's number (a run: 1)
 * @param agentGroup  a matrix's agent group the case ran on (its index); null for a run
 * @param placement   where its load ran
 * @param repetitions per finished repetition, what each agent did and the start skew
 */
public record CaseHosts(int caseNumber, Integer agentGroup, Placement placement, List<HostsRepetition> repetitions) {

    public CaseHosts {
        repetitions = repetitions == null ? List.of() : List.copyOf(repetitions);
    }
}
