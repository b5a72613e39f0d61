package io.loopbench.cluster;

import io.loopbench.engine.spec.Violation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A set of agents that runs a matrix's cases across hosts, one case at a time: one agent runs the echo server, the
 * client agents share each case's clients ({@link #placement}). A matrix with several groups runs its cases on them
 * in parallel. Immutable.
 *
 * @param server       the name of the agent that runs the echo server
 * @param clientAgents the agents that run clients, each named once (the server's agent may be one of them)
 */
public record AgentGroup(String server, List<String> clientAgents) {

    public AgentGroup {
        clientAgents = clientAgents == null ? List.of() : List.copyOf(clientAgents);
    }

    /**
     * Where a case with {@code clients} clients runs on this group: spread evenly over the client agents in their
     * order, the first ones taking one more where they do not divide; with fewer clients than client agents, the
     * last agents run none and are left out.
     */
    public Placement placement(int clients) {
        List<Placement.ClientShare> shares = new ArrayList<>();
        int n = clientAgents.size();
        for (int i = 0; i < n; i++) {
            int share = clients / n + (i < clients % n ? 1 : 0);
            if (share > 0) {
                shares.add(new Placement.ClientShare(clientAgents.get(i), share));
            }
        }
        return new Placement(server, shares);
    }

    /** Every agent of the group, the server's first. */
    public Set<String> agents() {
        return new Placement(server, clientAgents.stream().map(a -> new Placement.ClientShare(a, 1)).toList())
                .agents();
    }

    /** What is wrong with the group by itself, each field prefixed by {@code field} (e.g. {@code agentGroups[0]}). */
    public List<Violation> violations(String field) {
        List<Violation> v = new ArrayList<>();
        if (server == null || server.isBlank()) {
            v.add(new Violation(field + ".server", String.valueOf(server), "the name of the agent that runs the "
                    + "echo server"));
        }
        if (clientAgents.isEmpty()) {
            v.add(new Violation(field + ".clientAgents", "[]", "at least one agent that runs clients"));
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < clientAgents.size(); i++) {
            String a = clientAgents.get(i);
            if (a == null || a.isBlank()) {
                v.add(new Violation(field + ".clientAgents[" + i + "]", String.valueOf(a), "an agent's name"));
            } else if (!seen.add(a)) {
                v.add(new Violation(field + ".clientAgents[" + i + "]", a, "each agent once"));
            }
        }
        return v;
    }
}
