package io.loopbench.matrices;

import io.loopbench.cluster.AgentGroup;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.Profiling;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Validatable;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.spec.WindowMode;
import io.loopbench.runs.Isolation;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A matrix: lists of values whose every combination is one case. Every field is optional; omitted ones take
 * arknet's baseline: arknet's seven protocols, as its runner sweeps; payloads 64, 1024 and 16384 B; profiles 1 client ×
 * window 1 and 16 clients × window 16 (UDP forced to window 1 when the profiles are defaulted); IO models shared
 * and sharded with 1, 2 and 4 threads (sharded with 1 thread dropped as a duplicate of shared 1); work 0; transport
 * auto; sliding window; netty execution; a run spec's default measured phase and warm-up; at least 3 repetitions
 * (arknet's) and at most 5 (see {@link #DEFAULT_REPETITIONS}); keepGoing false; forked isolation.
 *
 * @param protocols     the protocols (default: arknet's seven, in their declared order; TLS ones with Netty's rule
 *                      for the provider and throw-away certificates unless tlsProviders says otherwise)
 * @param payloads      bytes per message
 * @param profiles      {clients, window} pairs
 * @param ioModels      shared, sharded
 * @param ioThreads     thread counts
 * @param work          xorshift iterations per echo
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
 * @param repetitions   the most repetitions of every case, each in a fresh fork
 * @param leastRepetitions the repetitions every case runs, 1 … repetitions (default 3, arknet's, or repetitions where
 *                      fewer): after them, each group of cases that differ only by IO profile runs on as a race does
 *                      (io.loopbench.race.Race): a case established worse than another of its group, or every case
 *                      of a group once the group is decided, runs no more repetitions. Equal to repetitions, every
 *                      case runs them all. Not across hosts, where every case runs them all
 * @param keepGoing     finish the matrix after a failed repetition (it then ends failed) instead of stopping
 * @param isolation     forked (default) or in-process
 * @param rates         open-load rates, messages per second (all clients): every case then runs at each rate, and
 *                      the report draws p99 against throughput; omitted, the load is closed
 * @param p99BoundUs    the p99 bound, µs, under which the report names each IO profile's highest rate (1000)
 * @param warmupMode    for every case: auto (default) warms up for at least warmupSeconds, then until throughput is
 *                      stable and the JIT quiet, at most warmupMaxSeconds; fixed warms up exactly warmupSeconds
 * @param warmupMaxSeconds auto warm-up's cap for every case, at least warmupSeconds; default the larger of 10 and
 *                      warmupSeconds
 * @param datagramsPerRead UDP cases: datagrams one read may take (default [1], one per call as arknet):
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
 * @param profiling     for every case: cpu profiles each measured phase's CPU time, off (default) takes no profile
 *                      (the run spec's {@code profiling})
 * @param blockingMicros µs of blocking call per echo on the server (default [0])
 * @param offloads      where the server's work runs: loop (default), executor, virtual-threads; virtual-threads
 *                      execution runs with loop only (its cases with another are dropped)
 * @param offloadThreads executor offload's pool sizes (default [16]): every executor case runs with each; the other
 *                      offloads ignore it
 * @param grpcMethods   grpc and grpcs cases: the loopbench.Echo methods, unary and/or stream (default [unary])
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
        @Schema(defaultValue = "2") Double seconds,
        @Schema(defaultValue = "1") Double warmupSeconds,
        @Schema(defaultValue = "5") Integer repetitions,
        @Schema(defaultValue = "false") Boolean keepGoing,
        @Schema(defaultValue = "forked", allowableValues = {"forked", "in-process"}) Isolation isolation,
        @Schema(example = "[5000, 10000, 20000, 40000]") List<Double> rates,
        @Schema(defaultValue = "1000") Double p99BoundUs,
        @Schema(defaultValue = "auto", allowableValues = {"auto", "fixed"}) WarmupMode warmupMode,
        @Schema(example = "10") Double warmupMaxSeconds,
        @Schema(example = "[1, 16]") List<Integer> datagramsPerRead,
        @Schema(example = "[\"jdk\", \"openssl\"]", defaultValue = "[\"auto\"]") List<TlsProvider> tlsProviders,
        String certsDirectory,
        List<AgentGroup> agentGroups,
        @Schema(defaultValue = "off", allowableValues = {"cpu", "off"}) Profiling profiling,
        // no schema default: it is 3 or repetitions where fewer, and a form filling in 3 would refuse repetitions 1
        @Schema(description = "The repetitions every case runs, 1 … repetitions; omitted, 3 (arknet's) or repetitions "
                + "where fewer. After them a case stops once its group (cases that differ only by IO profile) has it "
                + "established worse than another, or the group is decided.") Integer leastRepetitions,
        @Schema(example = "[0, 1000]") List<Integer> blockingMicros,
        @Schema(example = "[\"loop\", \"executor\", \"virtual-threads\"]") List<Offload> offloads,
        @Schema(example = "[4, 16, 64]") List<Integer> offloadThreads,
        @Schema(example = "[\"unary\", \"stream\"]", defaultValue = "[\"unary\"]") List<GrpcMethod> grpcMethods)
        implements Validatable {

    /**
     * The most repetitions by default: with the least, 3, a group's large, consistent gaps are decided (the verdicts'
     * confidence sequences need two rounds), and two more let closer ones decide while the default matrix stays within
     * the service's default limit of 4 hours at its most (210 cases × 5).
     */
    public static final int DEFAULT_REPETITIONS = 5;
    /** The repetitions every case runs by default: arknet's 3. */
    public static final int DEFAULT_LEAST_REPETITIONS = 3;
    /** The most values one list may hold. */
    public static final int MAX_LIST_VALUES = 64;
    /** The most (case, repetition) steps one matrix may have, counted from its lists before any case is built. */
    public static final long MAX_STEPS = 10_000;

    /**
     * One load profile.
     *
     * @param clients client connections (UDP: sockets)
     * @param window  messages in flight per client
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
                or(protocols, Protocol.ARKNET),
                or(payloads, List.of(64, 1024, 16384)),
                profiles,
                or(ioModels, List.of(IoModel.SHARED, IoModel.SHARDED)),
                or(ioThreads, List.of(1, 2, 4)),
                or(work, List.of(0)),
                or(transports, List.of(Transport.AUTO)),
                or(windowModes, List.of(WindowMode.SLIDING)),
                or(executions, List.of(Execution.NETTY)),
                seconds != null ? seconds : RunSpec.DEFAULT_SECONDS,
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
                agentGroups == null ? null : or(agentGroups, null), profiling,
                leastRepetitions != null ? leastRepetitions
                        : Math.min(DEFAULT_LEAST_REPETITIONS, repetitions != null ? repetitions : DEFAULT_REPETITIONS),
                or(blockingMicros, List.of(0)),
                or(offloads, List.of(Offload.LOOP)),
                or(offloadThreads, List.of(RunSpec.DEFAULT_OFFLOAD_THREADS)),
                or(grpcMethods, List.of(GrpcMethod.UNARY)));
    }

    /** Whether a case may stop before its most repetitions (after the least), its group being decided. */
    public boolean stopsWhenDecided() {
        return !acrossHosts() && leastRepetitions < repetitions;
    }

    /** Whether the cases run across hosts. */
    public boolean acrossHosts() {
        return agentGroups != null;
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
     * Every case, in arknet's runner order: IO profile (IO model, threads, work, blocking, transport, window mode) →
     * protocol → payload → profile → rate → the protocol's own dimension (UDP's datagramsPerRead, tcps' TLS providers),
     * then execution and offload innermost, so that the cases differing only by execution are adjacent. Virtual-threads execution is
     * left out of sharded IO profiles, an execution out of the protocols it does not run (see
     * {@link Protocol#runsOn}), and out of the profiles whose window it cannot keep in flight with the protocol (see
     * {@link Protocol#pipelinesOn}). Call on an {@link #effective()} spec.
     */
    public List<RunSpec> cases() {
        List<RunSpec> out = new ArrayList<>();
        for (IoProfile io : ioProfiles()) {
            for (ServerWork w : serverWork()) {
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
                                                .ioModel(io.model()).ioThreads(io.threads()).work(w.work())
                                                .blockingMicros(w.blockingMicros())
                                                .transport(t).windowMode(mode).seconds(seconds)
                                                .warmupSeconds(warmupSeconds).repetitions(repetitions)
                                                .load(rate == null ? null : LoadModel.OPEN).rate(rate)
                                                .warmupMode(warmupMode).warmupMaxSeconds(warmupMaxSeconds)
                                                .profiling(profiling));
                                        for (RunSpec variant : variants) {
                                            for (Execution e : executions) {
                                                if ((e != Execution.VIRTUAL_THREADS || io.model() != IoModel.SHARDED)
                                                        && p.runsOn(e)
                                                        && (profile.window() == 1 || p.pipelinesOn(e))) {
                                                    out.addAll(offloadCases(variant.toBuilder().execution(e), e, p));
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

    /** The server's work per echo: CPU iterations and a blocking call. */
    private record ServerWork(int work, int blockingMicros) {
    }

    /** Every work × blockingMicros pair, work outermost. */
    private List<ServerWork> serverWork() {
        List<ServerWork> out = new ArrayList<>();
        for (int w : work) {
            for (int b : blockingMicros) {
                out.add(new ServerWork(w, b));
            }
        }
        return out;
    }

    /**
     * A case's offloads, innermost: each offload, executor at each pool size; virtual-threads execution on the loop
     * only (its connections' work already runs on their own virtual threads); grpc-default for grpc only.
     */
    private List<RunSpec> offloadCases(RunSpec.Builder c, Execution execution, Protocol protocol) {
        List<RunSpec> out = new ArrayList<>();
        boolean virtualThreads = execution == Execution.VIRTUAL_THREADS;
        for (Offload o : offloads) {
            if (virtualThreads && o != Offload.LOOP || o == Offload.GRPC_DEFAULT && !protocol.grpc()) {
                continue;
            }
            for (int threads : o == Offload.EXECUTOR ? offloadThreads : List.of(RunSpec.DEFAULT_OFFLOAD_THREADS)) {
                out.add(c.offload(o).offloadThreads(threads).build());
            }
        }
        return out;
    }

    /**
     * A case's own protocol's dimensions: UDP's datagramsPerRead, the TLS protocols' providers, gRPC's methods (each
     * provider with each method); one case otherwise.
     */
    private List<RunSpec> protocolCases(Protocol p, RunSpec.Builder c) {
        return switch (p) {
            case UDP -> datagramsPerRead.stream().map(n -> c.datagramsPerRead(n).build()).toList();
            case TCPS, WSS, HTTPS, H2 -> tlsProviders.stream()
                    .map(provider -> c.tlsProvider(provider).certsDirectory(certsDirectory).build()).toList();
            case GRPCS -> tlsProviders.stream().flatMap(provider -> grpcMethods.stream().map(m -> c
                    .tlsProvider(provider).certsDirectory(certsDirectory).grpcMethod(m).build())).toList();
            case GRPC -> grpcMethods.stream().map(m -> c.grpcMethod(m).build()).toList();
            case TCP, WEBSOCKET, HTTP, H2C -> List.of(c.build());
        };
    }

    /** The rules on the lists themselves ({@link #listViolations()} of the effective spec). */
    @Override
    public List<Violation> violations() {
        return effective().listViolations();
    }

    /**
     * Rules on the lists themselves ({@link MatrixRules}). Call on an {@link #effective()} spec.
     */
    List<Violation> listViolations() {
        return MatrixRules.violations(this);
    }

    private static <T> List<T> or(List<T> value, List<T> fallback) {
        // not List.copyOf: a null value must reach listViolations() to be named there
        return value != null ? Collections.unmodifiableList(new ArrayList<>(value)) : fallback;
    }
}
