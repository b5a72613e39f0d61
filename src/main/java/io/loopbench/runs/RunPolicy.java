package io.loopbench.runs;

import io.loopbench.cluster.AgentState;
import io.loopbench.cluster.Coordinator;
import io.loopbench.cluster.KnownAgent;
import io.loopbench.cluster.Placement;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.spec.Violation;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What this service lets load do, asked alike by runs, matrices and echo servers before any work starts: the spec's
 * own rules and the service's limits, whether a transport loads here, where load may go (loopback or the allow-list,
 * each name resolved once) and which cluster agents may carry it. Immutable; the cluster's state is read when asked.
 */
public final class RunPolicy {

    private final RunsProperties properties;
    private final Resolver resolver;
    private final Coordinator cluster;
    private final List<Cidr> allowedTargets;

    /** @param cluster the coordinator of the agents runs may be placed on, or null when clustering is off */
    public RunPolicy(RunsProperties properties, Resolver resolver, Coordinator cluster) {
        this.properties = properties;
        this.resolver = resolver;
        this.cluster = cluster;
        this.allowedTargets = properties.network().allowedCidrs().stream().map(text -> {
            try {
                return Cidr.parse(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("loopbench.network.allowed-cidrs: " + e.getMessage(), e);
            }
        }).toList();
    }

    /** The cluster's coordinator, when clustering is on. */
    public Optional<Coordinator> cluster() {
        return Optional.ofNullable(cluster);
    }

    /**
     * Every rule the spec breaks here: {@link #ruleViolations} and whether its target is allowed.
     */
    public List<Violation> violations(RunSpec spec, Isolation isolation) {
        List<Violation> v = ruleViolations(spec, isolation);
        checkTarget(spec).map(AddressCheck::violation).ifPresent(v::add);
        return v;
    }

    /** The spec's target resolved once and checked against the allow-list; empty without a (valid) target. */
    public Optional<AddressCheck> checkTarget(RunSpec spec) {
        return Target.parse(spec.target()).map(t -> checkAddress("target", t.toString(), t.host()));
    }

    /**
     * The spec's own rules, this service's limits, whether its transport loads here and, in-process, whether this
     * JVM can carry its virtual threads.
     */
    public List<Violation> ruleViolations(RunSpec spec, Isolation isolation) {
        List<Violation> v = new ArrayList<>(spec.violations());
        if (isolation == Isolation.IN_PROCESS && VirtualThreads.violation(spec).isPresent()) {
            v.add(new Violation("isolation", isolation.label(), "forked with virtual-threads execution: the JDK sizes "
                    + "its virtual-thread scheduler once per JVM, and this service's does not have ioThreads = "
                    + spec.ioThreads() + " carriers (a forked worker is started with "
                    + String.join(" ", VirtualThreads.jvmOptions(spec.ioThreads())) + ")"));
        }
        RunsProperties.Limits limits = properties.limits();
        if (spec.phaseSeconds() > limits.maxSecondsPerRepetition()) {
            // the limit counts the longest warm-up: with auto warm-up its cap, named so the form marks that field
            String warmup = spec.warmupLimitSeconds() > spec.warmupSeconds() ? "warmupMaxSeconds" : "warmupSeconds";
            v.add(new Violation(warmup + "+seconds", String.valueOf(spec.phaseSeconds()),
                    "at most " + fmt(limits.maxSecondsPerRepetition())
                            + " (limit loopbench.limits.max-seconds-per-repetition)"));
        }
        if (spec.repetitions() > limits.maxRepetitions()) {
            v.add(new Violation("repetitions", String.valueOf(spec.repetitions()),
                    "at most " + limits.maxRepetitions() + " (limit loopbench.limits.max-repetitions)"));
        }
        if (spec.clients() > limits.maxClients()) {
            v.add(new Violation("clients", String.valueOf(spec.clients()),
                    "at most " + limits.maxClients() + " (limit loopbench.limits.max-clients)"));
        }
        if (!Transports.isAvailable(spec.transport())) {
            v.add(new Violation("transport", spec.transport().label(), "a transport that loads here ("
                    + spec.transport().label() + ": " + Transports.unavailabilityCause(spec.transport()) + ")"));
        }
        return v;
    }

    /**
     * What keeps a placement from running now: clustering off, a target besides it, a secure protocol without
     * certificates every agent has, or one of {@link #agentViolations}.
     */
    public List<Violation> placementViolations(RunSpec spec, Placement placement, boolean idle) {
        List<Violation> v = new ArrayList<>(placement.violations());
        if (cluster == null) {
            v.add(new Violation("placement", placement.server(), "no placement: clustering is off "
                    + "(loopbench.cluster.enabled)"));
            return v;
        }
        if (spec.target() != null) {
            v.add(new Violation("target", spec.target(), "none with a placement: the placement's server agent is "
                    + "the target"));
        }
        if (spec.protocol().secure() && spec.certsDirectory() == null) {
            v.add(new Violation("certsDirectory", "none", "with protocol " + spec.protocol().label() + " and a "
                    + "placement, a directory at that path on every agent, its server.pem for the server agent's "
                    + "address: the throw-away certificate is made per JVM, and only that JVM's clients trust it"));
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String name : placement.agents()) {
            fields.put(name, name.equals(placement.server()) ? "placement.server" : "placement.clients");
        }
        v.addAll(agentViolations(fields, idle));
        return v;
    }

    /**
     * What keeps these agents (each with the request field that named it) from carrying load now: clustering off,
     * an agent not in the cluster or, with {@code idle}, busy, or its address outside the allow-list (every agent's
     * address carries load: the server's receives it, each client agent's sends it).
     */
    public List<Violation> agentViolations(Map<String, String> fieldByAgent, boolean idle) {
        List<Violation> v = new ArrayList<>();
        if (cluster == null) {
            // the request's field for them all (agentGroups, not agentGroups[0].server): none of them can be had
            String field = fieldByAgent.values().stream().findFirst().map(f -> f.split("[.\\[]")[0])
                    .orElse("agents");
            v.add(new Violation(field, String.join(", ", fieldByAgent.keySet()), "agents in a cluster: clustering "
                    + "is off (loopbench.cluster.enabled)"));
            return v;
        }
        Map<String, KnownAgent> agents = new HashMap<>();
        cluster.agents().forEach(a -> agents.put(a.member(), a));
        fieldByAgent.forEach((name, field) -> {
            KnownAgent a = agents.get(name);
            if (a == null) {
                v.add(new Violation(field, name, "an agent in the cluster: " + (agents.isEmpty() ? "none is"
                        : String.join(", ", new TreeSet<>(agents.keySet())))));
            } else if (idle && a.state() != AgentState.IDLE) {
                v.add(new Violation(field, name, "an idle agent; " + name + " is " + a.state().label()));
            } else if (a.address() == null) {
                v.add(new Violation(field, name, "an agent whose address is known"));
            } else {
                Optional.ofNullable(checkAddress(field, name, a.address()).violation()).ifPresent(v::add);
            }
        });
        return v;
    }

    /** How host names are resolved: the system's resolver, or a test's. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /**
     * A host resolved once and checked: the address to use (its first), or why it may not be used.
     *
     * @param address   the address to use from now on, without resolving the name again; null with a violation
     * @param violation why not, or null
     */
    public record AddressCheck(InetAddress address, Violation violation) {
    }

    /**
     * Load may go only to loopback, or inside {@code loopbench.network.allowed-cidrs}: resolves {@code host} once and
     * gives its first address, or a violation of {@code field} unless every address it resolves to is allowed. The
     * caller uses the address, never the name again, so that a name cannot resolve elsewhere later (DNS rebinding).
     */
    public AddressCheck checkAddress(String field, String shown, String host) {
        try {
            InetAddress[] all = resolver.resolve(host);
            for (InetAddress a : all) {
                Optional<Violation> v = addressViolation(field, shown, host, a);
                if (v.isPresent()) {
                    return new AddressCheck(null, v.get());
                }
            }
            return all.length == 0 ? new AddressCheck(null, new Violation(field, shown, "a host that resolves"))
                    : new AddressCheck(all[0], null);
        } catch (UnknownHostException e) {
            return new AddressCheck(null, new Violation(field, shown, "a host that resolves; " + e.getMessage()));
        }
    }

    /** A violation of {@code field} unless the address is loopback or inside the current allow-list. */
    private Optional<Violation> addressViolation(String field, String shown, String host, InetAddress a) {
        if (a.isLoopbackAddress() || allowedTargets.stream().anyMatch(c -> c.contains(a))) {
            return Optional.empty();
        }
        String allowed = "a loopback address" + (allowedTargets.isEmpty()
                ? " (loopbench.network.allowed-cidrs is empty)"
                : " or one inside loopbench.network.allowed-cidrs " + properties.network().allowedCidrs());
        return Optional.of(new Violation(field, shown, allowed + "; " + host + " is " + a.getHostAddress()));
    }

    /**
     * Why a run may no longer send load to the address its {@code target} was checked at ({@code targetAddress}, null
     * without a target): the allow-list may have changed since (a restart with other settings) — checked by address,
     * never by resolving the name again.
     */
    public Optional<String> targetRefused(String target, String targetAddress) {
        if (targetAddress == null) {
            return Optional.empty();
        }
        Target t = Target.parse(targetAddress).orElseThrow();
        try {
            InetAddress a = InetAddress.getByName(t.host()); // an address literal: no lookup
            return addressViolation("target", target, t.host(), a)
                    .map(v -> "target " + target + " (" + targetAddress + ") is no longer allowed: "
                            + v.allowed());
        } catch (UnknownHostException e) {
            return Optional.of("target address " + targetAddress + " is not an address: " + e.getMessage());
        }
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%s", d);
    }
}
