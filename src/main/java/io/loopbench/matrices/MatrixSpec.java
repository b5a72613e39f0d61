package io.loopbench.matrices;

import io.loopbench.cluster.AgentGroup;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.spec.WindowMode;
import io.loopbench.engine.spec.Validatable;
import io.loopbench.runs.Isolation;
import io.loopbench.runs.StepRunner;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A matrix: lists of values whose every combination is one case. Every field is optional; omitted ones take
 * arknet's baseline: every protocol, as arknet's runner sweeps; payloads 64, 1024 and 16384 B; profiles 1 client ×
 * window 1 and 16 clients × window 16 (UDP forced to window 1 when the profiles are defaulted); IO models shared
 * and sharded with 1, 2 and 4 threads (sharded with 1 thread dropped as a duplicate of shared 1); work 0; transport
 * auto; sliding window; netty execution; 3 s measured after 1 s of warm-up, 7 repetitions (arknet runs 3; see {@link #DEFAULT_REPETITIONS}); keepGoing false; forked isolation.
 *
 * @param protocols     the protocols (default: all of them, in their declared order; TLS ones with Netty's rule
 *                      for the provider and throw-away certificates unless tlsProviders says otherwise)
 * @param payloads      bytes per message, each 16 … 65507
 * @param profiles      {clients, window} pairs
 * @param ioModels      shared, sharded
 * @param ioThreads     thread counts, each 1 … 64
 * @param work          xorshift iterations per echo, each 0 … 10,000,000
 * @param transports    auto, nio, epoll, io_uring
 * @param windowModes   sliding, batch
 * @param executions    netty, reactive, virtual-threads: how both ends are programmed; the first listed is the
 *                      baseline of the report's matched comparison. Virtual-threads with the sharded IO model is
 *                      dropped (virtual threads run on one shared pool of carriers: there are no shards), and so
 *                      is a protocol with an execution it has no ends for (websocket, wss, http and https:
 *                      virtual-threads), and a profile whose window the execution cannot keep in flight (http and
 *                      https with reactive: window 1 only, Reactor Netty's HttpClient sending one request at a time)
 * @param seconds       measured seconds per repetition
 * @param warmupSeconds warm-up seconds per repetition; with auto warmupMode the least warm-up
 * @param repetitions   repetitions of every case, each in a fresh fork
 * @param keepGoing     finish the matrix after a failed repetition (it then ends failed) instead of stopping
 * @param isolation     forked (default) or in-process
 * @param rates         open-load rates, messages per second (all clients): every case then runs at each rate, and
 *                      the report draws p99 against throughput; omitted, the load is closed
 * @param p99BoundUs    the p99 bound, µs, under which the report names each IO profile's highest rate (1000)
 * @param warmupMode    for every case: auto (default) warms up for at least warmupSeconds, then until throughput is
 *                      stable and the JIT quiet, at most warmupMaxSeconds; fixed warms up exactly warmupSeconds
 * @param warmupMaxSeconds auto warm-up's cap for every case, warmupSeconds … 3600; default the larger of 10 and
 *                      warmupSeconds
 * @param datagramsPerRead UDP cases: datagrams one read may take, each 1 … 64 (default [1], one per call as arknet):
 *                      every UDP case runs at each value (recvmmsg above 1, epoll only); TCP cases ignore it
 * @param tlsProviders  tcps, wss and https cases: auto (Netty's rule: openssl where it loads, else jdk), jdk, openssl
 *                      (Netty's BoringSSL provider), default [auto]: every
 *                      such case runs with each, as arknet's dependency combinations; the other protocols ignore it
 * @param certsDirectory tcps, wss and https cases: a directory with the server's certificate and key and the CA
 *                      ({@code server.pem}, {@code server-key.pem}, {@code ca.pem}); omitted, a throw-away one is made
 *                      per JVM. Cases across hosts need it, at that path on every agent
 * @param agentGroups   run the cases across hosts, on these groups of agents of the cluster: each group one server
 *                      agent and the client agents a case's clients are spread over; with several groups (disjoint,
 *                      each role of one hardware) cases run in parallel, one per group at a time, the cases that
 *                      differ only by execution on the same group; each case records its placement. Omitted, the
 *                      cases run on this host ({@code isolation} does not apply across hosts: the agents measure)
 */
@Schema(description = "A matrix of cases; omitted lists take arknet's baseline.")
public record MatrixSpec(
        @Schema(example = "[\"tcp\", \"tcps\"]") List<Protocol> protocols,
        @Schema(example = "[64, 1024, 16384]") List<Integer> payloads,
        List<Profile> profiles,
        @Schema(example = "[\"shared\", \"sharded\"]") List<IoModel> ioModels,
        @Schema(example = "[1, 2, 4]") List<Integer> ioThreads,
        @Schema(example = "[0]") List<Integer> work,
        @Schema(example = "[\"auto\"]") List<Transport> transports,
        @Schema(example = "[\"sliding\"]") List<WindowMode> windowModes,
        @Schema(example = "[\"netty\"]") List<Execution> executions,
        @Schema(defaultValue = "3") Double seconds,
        @Schema(defaultValue = "1") Double warmupSeconds,
        @Schema(defaultValue = "7") Integer repetitions,
        @Schema(defaultValue = "false") Boolean keepGoing,
        @Schema(defaultValue = "forked", allowableValues = {"forked", "in-process"}) Isolation isolation,
        @Schema(example = "[5000, 10000, 20000, 40000]") List<Double> rates,
        @Schema(defaultValue = "1000") Double p99BoundUs,
        @Schema(defaultValue = "auto", allowableValues = {"auto", "fixed"}) WarmupMode warmupMode,
        @Schema(example = "10") Double warmupMaxSeconds,
        @Schema(example = "[1, 16]") List<Integer> datagramsPerRead,
        @Schema(example = "[\"jdk\", \"openssl\"]", defaultValue = "[\"auto\"]") List<TlsProvider> tlsProviders,
        String certsDirectory,
        List<AgentGroup> agentGroups) implements Validatable {

    /**
     * Repetitions by default: the fewest with which Wilcoxon's signed-rank test can establish the two differences of
     * a key result (throughput and p99, one Holm family) at 5 %: every pair one way gives p = 2 ÷ 2⁷ ≈ 0.016, under
     * 0.05 ÷ 2; six pairs (0.031) decide one comparison alone, three never do (io.loopbench.verdicts).
     */
    public static final int DEFAULT_REPETITIONS = 7;
    /** The most values one list may hold. */
    public static final int MAX_LIST_VALUES = 64;
    /** The most (case, repetition) steps one matrix may have, counted from its lists before any case is built. */
    public static final long MAX_STEPS = 10_000;

    /**
     * One load profile.
     *
     * @param clients client connections (UDP: sockets), 1 … 1024
     * @param window  messages in flight per client, 1 … 1024
     */
    public record Profile(int clients, int window) {
    }

    /** Whether the profiles were defaulted (then UDP runs with window 1, as arknet's baseline). */
    public boolean defaultProfiles() {
        return profiles == null;
    }

    /** The spec with every omitted field at its default (the profiles keep their "defaulted" mark). */
    public MatrixSpec effective() {
        return new MatrixSpec(
                or(protocols, List.of(Protocol.values())),
                or(payloads, List.of(64, 1024, 16384)),
                profiles,
                or(ioModels, List.of(IoModel.SHARED, IoModel.SHARDED)),
                or(ioThreads, List.of(1, 2, 4)),
                or(work, List.of(0)),
                or(transports, List.of(Transport.AUTO)),
                or(windowModes, List.of(WindowMode.SLIDING)),
                or(executions, List.of(Execution.NETTY)),
                seconds != null ? seconds : 3.0,
                warmupSeconds != null ? warmupSeconds : 1.0,
                repetitions != null ? repetitions : DEFAULT_REPETITIONS,
                keepGoing != null && keepGoing,
                isolation != null ? isolation : Isolation.FORKED,
                rates == null ? null : or(rates, null),
                p99BoundUs != null ? p99BoundUs : 1000.0,
                warmupMode != null ? warmupMode : WarmupMode.AUTO,
                warmupMaxSeconds,
                or(datagramsPerRead, List.of(1)),
                or(tlsProviders, List.of(TlsProvider.AUTO)),
                certsDirectory,
                agentGroups == null ? null : or(agentGroups, null));
    }

    /** Whether the cases run across hosts. */
    public boolean acrossHosts() {
        return agentGroups != null;
    }

    /**
     * The group each case runs on, by case index: the blocks of cases that differ only by execution (adjacent in
     * {@link #cases()}) are dealt to the groups in turn, so that a matched comparison never crosses groups. Empty
     * unless across hosts.
     */
    public static List<Integer> groupOfCases(List<RunSpec> cases, int groups) {
        List<Integer> out = new ArrayList<>();
        int block = -1;
        RunSpec previous = null;
        for (RunSpec c : cases) {
            RunSpec besidesExecution = besidesExecution(c);
            if (!besidesExecution.equals(previous)) {
                block++;
            }
            out.add(block % groups);
            previous = besidesExecution;
        }
        return out;
    }

    private static RunSpec besidesExecution(RunSpec c) {
        return c.toBuilder().execution(null).build();
    }

    private List<Profile> profilesFor(Protocol p) {
        if (profiles != null) {
            return profiles;
        }
        return p == Protocol.UDP ? List.of(new Profile(1, 1), new Profile(16, 1))
                : List.of(new Profile(1, 1), new Profile(16, 16));
    }

    /** One IO profile: an IO model with its thread count. */
    private record IoProfile(IoModel model, int threads) {
    }

    /** The IO profiles: every ioModel × ioThreads pair, sharded with 1 thread dropped (it is shared 1). */
    private List<IoProfile> ioProfiles() {
        List<IoProfile> out = new ArrayList<>();
        for (IoModel m : ioModels) {
            for (int t : ioThreads) {
                if (!(m == IoModel.SHARDED && t == 1 && ioModels.contains(IoModel.SHARED))) {
                    out.add(new IoProfile(m, t));
                }
            }
        }
        return out;
    }

    /**
     * Every case, in arknet's runner order: IO profile (IO model, threads, work, transport, window mode) → protocol
     * → payload → profile → rate → the protocol's own dimension (UDP's datagramsPerRead, tcps' TLS providers), then
     * execution innermost, so that the cases differing only by execution are adjacent. Virtual-threads execution is
     * left out of sharded IO profiles, an execution out of the protocols it does not run (see
     * {@link Protocol#runsOn}), and out of the profiles whose window it cannot keep in flight with the protocol (see
     * {@link Protocol#pipelinesOn}). Call on an {@link #effective()} spec.
     */
    public List<RunSpec> cases() {
        List<RunSpec> out = new ArrayList<>();
        for (IoProfile io : ioProfiles()) {
            for (int w : work) {
                for (Transport t : transports) {
                    for (WindowMode mode : windowModes) {
                        for (Protocol p : protocols) {
                            for (int payload : payloads) {
                                for (Profile profile : profilesFor(p)) {
                                    for (Double rate : rates == null ? java.util.Collections.<Double>singletonList(null)
                                            : rates) {
                                        List<RunSpec> variants = protocolCases(p, RunSpec.builder().protocol(p)
                                                .payloadBytes(payload)
                                                .clients(profile.clients()).window(profile.window())
                                                .ioModel(io.model()).ioThreads(io.threads()).work(w)
                                                .transport(t).windowMode(mode).seconds(seconds)
                                                .warmupSeconds(warmupSeconds).repetitions(repetitions)
                                                .load(rate == null ? null : LoadModel.OPEN).rate(rate)
                                                .warmupMode(warmupMode).warmupMaxSeconds(warmupMaxSeconds));
                                        for (RunSpec variant : variants) {
                                            for (Execution e : executions) {
                                                if ((e != Execution.VIRTUAL_THREADS || io.model() != IoModel.SHARDED)
                                                        && p.runsOn(e)
                                                        && (profile.window() == 1 || p.pipelinesOn(e))) {
                                                    out.add(variant.toBuilder().execution(e).build());
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    /** A case's own protocol's dimensions: UDP's datagramsPerRead, the TLS protocols' providers; one case otherwise. */
    private List<RunSpec> protocolCases(Protocol p, RunSpec.Builder c) {
        return switch (p) {
            case UDP -> datagramsPerRead.stream().map(n -> c.datagramsPerRead(n).build()).toList();
            case TCPS, WSS, HTTPS -> tlsProviders.stream()
                    .map(provider -> c.tlsProvider(provider).certsDirectory(certsDirectory).build()).toList();
            case TCP, WEBSOCKET, HTTP -> List.of(c.build());
        };
    }

    /**
     * The order in which (case, repetition) steps run: repetitions outermost; within a repetition the cases that
     * differ only by execution run back to back, in the listed order of executions in odd repetitions and in the
     * reverse order in even ones, so that none always runs first and drift (heat, JIT, neighbours) falls on each
     * alike in the matched comparison; and each repetition starts at another such block of cases (rotated by
     * blocks ÷ repetitions), so that no case always runs first or in the same position.
     *
     * @param cases the cases as {@link #cases()} orders them (executions innermost)
     * @return the steps, each a case and a repetition
     */
    public static List<StepRunner.Step> steps(List<RunSpec> cases, int repetitions) {
        List<List<Integer>> blocks = new ArrayList<>();
        RunSpec previous = null;
        for (int i = 0; i < cases.size(); i++) {
            RunSpec besidesExecution = besidesExecution(cases.get(i));
            if (!besidesExecution.equals(previous)) {
                blocks.add(new ArrayList<>());
            }
            blocks.getLast().add(i);
            previous = besidesExecution;
        }
        List<StepRunner.Step> out = new ArrayList<>();
        for (int r = 1; r <= repetitions; r++) {
            int offset = (int) ((long) (r - 1) * blocks.size() / repetitions);
            for (int k = 0; k < blocks.size(); k++) {
                List<Integer> block = blocks.get((k + offset) % blocks.size());
                for (int j = 0; j < block.size(); j++) {
                    int c = block.get(r % 2 == 1 ? j : block.size() - 1 - j);
                    out.add(new StepRunner.Step(c, r, cases.get(c)));
                }
            }
        }
        return out;
    }

    /** The rules on the lists themselves ({@link #listViolations()} of the effective spec). */
    @Override
    public List<Violation> violations() {
        return effective().listViolations();
    }

    /**
     * Rules on the lists themselves: no null value, none empty or longer than {@value #MAX_LIST_VALUES}, no value
     * twice, at most {@value #MAX_STEPS} steps (counted from the lists' lengths, before any case is built), not every
     * case dropped (virtual-threads with only the sharded IO model; only executions the protocols do not run, or not
     * with the profiles' windows). Call on an {@link #effective()} spec.
     */
    List<Violation> listViolations() {
        List<Violation> v = new ArrayList<>();
        Map<String, List<?>> lists = new LinkedHashMap<>();
        lists.put("protocols", protocols);
        lists.put("payloads", payloads);
        lists.put("profiles", profiles);
        lists.put("ioModels", ioModels);
        lists.put("ioThreads", ioThreads);
        lists.put("work", work);
        lists.put("transports", transports);
        lists.put("windowModes", windowModes);
        lists.put("executions", executions);
        lists.put("rates", rates);
        lists.put("datagramsPerRead", datagramsPerRead);
        lists.put("tlsProviders", tlsProviders);
        double steps = Math.max(1, repetitions); // a double: no overflow, and exact far beyond the cap
        for (var e : lists.entrySet()) {
            List<?> values = e.getValue();
            if (values == null) {
                continue; // profiles and rates may be omitted
            }
            if (values.stream().anyMatch(Objects::isNull)) {
                v.add(new Violation(e.getKey(), text(values), "values that are not null"));
            } else if (values.size() > MAX_LIST_VALUES) {
                v.add(new Violation(e.getKey(), values.size() + " values", "at most " + MAX_LIST_VALUES + " values"));
            } else {
                unique(v, e.getKey(), values);
            }
            steps *= Math.max(1, values.size());
        }
        steps *= profiles == null ? 2 : 1;
        if (steps > MAX_STEPS) {
            v.add(new Violation("cases×repetitions", String.format(Locale.ROOT, "%.0f", steps), "at most "
                    + MAX_STEPS + " (steps of one matrix; counted from the lists' lengths before sharded-1 and "
                    + "virtual-threads × sharded are dropped)"));
        }
        if (List.of(Execution.VIRTUAL_THREADS).equals(executions) && List.of(IoModel.SHARDED).equals(ioModels)) {
            // every case would be dropped: say why rather than accept a matrix of nothing
            v.add(new Violation("executions×ioModels", executions.getFirst().label() + " × "
                    + ioModels.getFirst().label(), "virtual-threads runs only with the shared IO model: list shared, "
                    + "or another execution"));
        }
        if (v.isEmpty() && cases().isEmpty()) {
            v.add(new Violation("executions×protocols", text(executions) + " × " + text(protocols),
                    "at least one execution that runs one of the protocols (" + protocols.stream()
                            .map(p -> p.label() + ": " + Arrays.stream(Execution.values()).filter(p::runsOn)
                                    .map(e -> e.label() + (p.pipelinesOn(e) ? "" : " with window 1"))
                                    .collect(Collectors.joining(", ")))
                            .collect(Collectors.joining("; ")) + ")"));
        }
        if (agentGroups != null) {
            groupViolations(v);
        }
        if (!(p99BoundUs > 0 && Double.isFinite(p99BoundUs))) {
            v.add(new Violation("p99BoundUs", String.valueOf(p99BoundUs), "a finite number more than 0"));
        }
        return v;
    }

    /** The groups by themselves: at least one, each well formed, no agent in two (whether they exist is the service's). */
    private void groupViolations(List<Violation> v) {
        if (agentGroups.isEmpty()) {
            v.add(new Violation("agentGroups", "[]", "at least one group, or none (omitted) to run on this host"));
        } else if (agentGroups.size() > MAX_LIST_VALUES) {
            v.add(new Violation("agentGroups", agentGroups.size() + " groups", "at most " + MAX_LIST_VALUES));
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
        return values.stream().map(MatrixSpec::text).collect(Collectors.joining(", ", "[", "]"));
    }

    private static <T> List<T> or(List<T> value, List<T> fallback) {
        // not List.copyOf: a null value must reach listViolations() to be named there
        return value != null ? Collections.unmodifiableList(new ArrayList<>(value)) : fallback;
    }
}
