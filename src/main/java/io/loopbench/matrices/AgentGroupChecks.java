package io.loopbench.matrices;

import io.loopbench.cluster.AgentGroup;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Violation;
import io.loopbench.runs.RunPolicy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a matrix's agent groups must hold before it is accepted. Stateless. */
final class AgentGroupChecks {

    private AgentGroupChecks() {
    }

    /**
     * What keeps the agent groups from running the cases now: an agent not in the cluster, busy, or outside the
     * allow-list; secure cases without a certificates directory every agent has; and groups of different hardware
     * (the servers must match each other, and so must the client agents), whose figures would not compare.
     */
    static List<Violation> violations(RunPolicy policy, MatrixSpec spec, List<RunSpec> cases) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int g = 0; g < spec.agentGroups().size(); g++) {
            AgentGroup group = spec.agentGroups().get(g);
            fields.put(group.server(), "agentGroups[" + g + "].server");
            for (int i = 0; i < group.clientAgents().size(); i++) {
                fields.putIfAbsent(group.clientAgents().get(i), "agentGroups[" + g + "].clientAgents[" + i + "]");
            }
        }
        List<Violation> v = new ArrayList<>(policy.agentViolations(fields, true));
        if (spec.certsDirectory() == null) {
            cases.stream().map(RunSpec::protocol).filter(Protocol::secure).findFirst().ifPresent(p -> v.add(
                    new Violation("certsDirectory", "none", "with " + p.label() + " cases across hosts, a directory "
                            + "at that path on every agent, its server.pem for each server agent's address: the "
                            + "throw-away certificate is made per JVM, and only that JVM's clients trust it")));
        }
        if (v.isEmpty() && spec.agentGroups().size() > 1) {
            Map<String, String> hardware = new HashMap<>();
            policy.cluster().orElseThrow().agents().forEach(a -> hardware.put(a.member(), a.facts() == null ? "unknown"
                    : a.facts().hardware()));
            sameHardware(v, spec, hardware, true);
            sameHardware(v, spec, hardware, false);
        }
        return v;
    }

    /** A violation for each agent of one role (servers, or client agents) whose hardware differs from the first's. */
    static void sameHardware(List<Violation> v, MatrixSpec spec, Map<String, String> hardware, boolean servers) {
        String first = null;
        String firstField = null;
        for (int g = 0; g < spec.agentGroups().size(); g++) {
            AgentGroup group = spec.agentGroups().get(g);
            List<String> agents = servers ? List.of(group.server()) : group.clientAgents();
            for (int i = 0; i < agents.size(); i++) {
                String field = "agentGroups[" + g + "]." + (servers ? "server" : "clientAgents[" + i + "]");
                String h = hardware.get(agents.get(i));
                if (first == null) {
                    first = h;
                    firstField = field;
                } else if (!first.equals(h)) {
                    v.add(new Violation(field, agents.get(i) + " (" + h + ")", (servers ? "a server" : "a client")
                            + " agent of the same hardware as " + firstField + " (" + first + "), so that every "
                            + "group's figures compare"));
                }
            }
        }
    }
}
