package io.loopbench.cluster;

import io.loopbench.engine.spec.Violation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where a run across hosts puts its load: one agent runs the echo server, one or more agents run clients against it
 * (the server's agent may run clients too). Immutable.
 *
 * @param server  the name of the agent that runs the echo server
 * @param clients the agents that run clients, each with how many
 */
public record Placement(String server, List<ClientShare> clients) {

    /**
     * @param agent   the agent's name
     * @param clients how many clients (connections, or UDP sockets) it runs
     */
    public record ClientShare(String agent, int clients) {
    }

    public Placement {
        clients = clients == null ? List.of() : List.copyOf(clients);
    }

    /** Every agent the placement names, the server's first. */
    public Set<String> agents() {
        Set<String> all = new LinkedHashSet<>();
        if (server != null) {
            all.add(server);
        }
        clients.forEach(c -> all.add(c.agent()));
        return all;
    }

    /** Every client, over all agents. */
    public int totalClients() {
        return clients.stream().mapToInt(ClientShare::clients).sum();
    }

    /** What is wrong with the placement by itself (whether its agents exist and are idle is the caller's to check). */
    public List<Violation> violations() {
        List<Violation> v = new ArrayList<>();
        if (server == null || server.isBlank()) {
            v.add(new Violation("placement.server", String.valueOf(server), "the name of the agent that runs the "
                    + "echo server"));
        }
        if (clients.isEmpty()) {
            v.add(new Violation("placement.clients", "none", "at least one agent that runs clients"));
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < clients.size(); i++) {
            ClientShare c = clients.get(i);
            if (c.agent() == null || c.agent().isBlank()) {
                v.add(new Violation("placement.clients[" + i + "].agent", String.valueOf(c.agent()),
                        "an agent's name"));
            } else if (!seen.add(c.agent())) {
                v.add(new Violation("placement.clients[" + i + "].agent", c.agent(), "each agent once"));
            }
            if (c.clients() < 1) {
                v.add(new Violation("placement.clients[" + i + "].clients", String.valueOf(c.clients()),
                        "at least 1"));
            }
        }
        return v;
    }
}
