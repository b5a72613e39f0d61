package io.loopbench.agents;

import io.loopbench.cluster.KnownAgent;
import io.loopbench.cluster.MemberFacts;

import java.util.List;

/**
 * The cluster as {@code GET /api/agents} shows it.
 *
 * @param cluster            {@code disabled} or {@code joined}
 * @param clusterName        the cluster's name; null when disabled
 * @param coordinatorAddress where the agents reach this service's cluster transport ({@code ip:port}); null when
 *                           disabled
 * @param coordinator        this service's own facts as it gives them to the cluster; null when disabled
 * @param agents             the agents in the cluster's current view, by member name; empty when disabled
 */
public record AgentsView(ClusterStatus cluster, String clusterName, String coordinatorAddress,
                         MemberFacts coordinator, List<KnownAgent> agents) {

    static final AgentsView DISABLED = new AgentsView(ClusterStatus.DISABLED, null, null, null, List.of());
}
