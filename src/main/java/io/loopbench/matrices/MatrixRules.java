package io.loopbench.matrices;

import io.loopbench.cluster.AgentGroup;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.engine.spec.Violation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/** The rules a matrix's lists must keep, whatever its cases. Stateless. */
final class MatrixRules {

    private MatrixRules() {
    }

    /**
     * Rules on the lists themselves: no null value, none empty or longer than {@value MatrixSpec#MAX_LIST_VALUES},
     * no value twice, at most {@value MatrixSpec#MAX_STEPS} steps (counted from the lists' lengths, before any case is
     * built), not every case dropped (virtual-threads with only the sharded IO model; only executions the protocols do not run, or not
     * with the profiles' windows). Call on an {@link MatrixSpec#effective()} spec.
     */
    static List<Violation> violations(MatrixSpec m) {
        List<Violation> v = new ArrayList<>();
        Map<String, List<?>> lists = new LinkedHashMap<>();
        lists.put("protocols", m.protocols());
        lists.put("payloads", m.payloads());
        lists.put("profiles", m.profiles());
        lists.put("ioModels", m.ioModels());
        lists.put("ioThreads", m.ioThreads());
        lists.put("work", m.work());
        lists.put("transports", m.transports());
        lists.put("windowModes", m.windowModes());
        lists.put("executions", m.executions());
        lists.put("rates", m.rates());
        lists.put("datagramsPerRead", m.datagramsPerRead());
        lists.put("tlsProviders", m.tlsProviders());
        lists.put("blockingMicros", m.blockingMicros());
        lists.put("offloads", m.offloads());
        lists.put("offloadThreads", m.offloadThreads());
        lists.put("grpcMethods", m.grpcMethods());
        if (m.leastRepetitions() < 1 || m.leastRepetitions() > Math.max(1, m.repetitions())) {
            v.add(new Violation("leastRepetitions", String.valueOf(m.leastRepetitions()), "1 … repetitions ("
                    + m.repetitions() + ")"));
        }
        double steps = Math.max(1, m.repetitions()); // a double: no overflow, and exact far beyond the cap
        for (var e : lists.entrySet()) {
            List<?> values = e.getValue();
            if (values == null) {
                continue; // profiles and rates may be omitted
            }
            if (values.stream().anyMatch(Objects::isNull)) {
                v.add(new Violation(e.getKey(), text(values), "values that are not null"));
            } else if (values.size() > MatrixSpec.MAX_LIST_VALUES) {
                v.add(new Violation(e.getKey(), values.size() + " values",
                        "at most " + MatrixSpec.MAX_LIST_VALUES + " values"));
            } else {
                unique(v, e.getKey(), values);
            }
            steps *= Math.max(1, values.size());
        }
        steps *= m.profiles() == null ? 2 : 1;
        if (steps > MatrixSpec.MAX_STEPS) {
            v.add(new Violation("cases×repetitions", String.format(Locale.ROOT, "%.0f", steps), "at most "
                    + MatrixSpec.MAX_STEPS + " (steps of one matrix; counted from the lists' lengths before "
                    + "sharded-1 and virtual-threads × sharded are dropped)"));
        }
        if (List.of(Execution.VIRTUAL_THREADS).equals(m.executions())
                && List.of(IoModel.SHARDED).equals(m.ioModels())) {
            // every case would be dropped: say why rather than accept a matrix of nothing
            v.add(new Violation("executions×ioModels", m.executions().getFirst().label() + " × "
                    + m.ioModels().getFirst().label(), "virtual-threads runs only with the shared IO model: list "
                    + "shared, or another execution"));
        }
        if (v.isEmpty() && m.cases().isEmpty()) {
            v.add(new Violation("executions×protocols", text(m.executions()) + " × " + text(m.protocols()),
                    "at least one execution that runs one of the protocols (" + m.protocols().stream()
                            .map(p -> p.label() + ": " + Arrays.stream(Execution.values()).filter(p::runsOn)
                                    .map(e -> e.label() + (p.pipelinesOn(e) ? "" : " with window 1"))
                                    .collect(Collectors.joining(", ")))
                            .collect(Collectors.joining("; ")) + ")"));
        }
        if (m.agentGroups() != null) {
            groupViolations(v, m.agentGroups());
        }
        if (!(m.p99BoundUs() > 0 && Double.isFinite(m.p99BoundUs()))) {
            v.add(new Violation("p99BoundUs", String.valueOf(m.p99BoundUs()), "a finite number more than 0"));
        }
        return v;
    }

    /**
     * The groups by themselves: at least one, each well formed, no agent in two (whether they exist is the
     * service's).
     */
    private static void groupViolations(List<Violation> v, List<AgentGroup> agentGroups) {
        if (agentGroups.isEmpty()) {
            v.add(new Violation("agentGroups", "[]", "at least one group, or none (omitted) to run on this host"));
        } else if (agentGroups.size() > MatrixSpec.MAX_LIST_VALUES) {
            v.add(new Violation("agentGroups", agentGroups.size() + " groups",
                    "at most " + MatrixSpec.MAX_LIST_VALUES));
            return;
        }
        Map<String, Integer> owner = new HashMap<>();
        for (int g = 0; g < agentGroups.size(); g++) {
            AgentGroup group = agentGroups.get(g);
            String field = "agentGroups[" + g + "]";
            if (group == null) {
                v.add(new Violation(field, "null", "a group: {server, clientAgents}"));
                continue;
            }
            v.addAll(group.violations(field));
            for (String agent : group.agents()) {
                Integer other = agent == null ? null : owner.putIfAbsent(agent, g);
                if (other != null && other != g) {
                    v.add(new Violation(field, agent, "groups with no agent in common (" + agent + " is in "
                            + "agentGroups[" + other + "] too): groups run at once"));
                }
            }
        }
    }

    private static void unique(List<Violation> v, String field, List<?> values) {
        if (values.isEmpty()) {
            v.add(new Violation(field, "[]", "at least one value"));
            return;
        }
        Set<Object> seen = new HashSet<>();
        for (Object o : values) {
            if (!seen.add(o)) {
                v.add(new Violation(field, text(values), "each value once (" + text(o) + " repeats)"));
                return;
            }
        }
    }

    /** A value as the API writes it: an enum by its label. */
    private static String text(Object value) {
        return value instanceof Labeled l ? l.label() : String.valueOf(value);
    }

    /** A list as the API writes it. */
    private static String text(List<?> values) {
        return values.stream().map(MatrixRules::text).collect(Collectors.joining(", ", "[", "]"));
    }
}
