package io.loopbench.race;

import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Validatable;
import io.loopbench.engine.spec.Violation;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * What a recommendation is asked: a load and a time budget. loopbench races the ways to run the load on this machine
 * — IO models × thread counts × transports × executions × where the server's work runs, see {@link #candidates} —
 * and names the one to use.
 *
 * @param load          the load, as a run's spec: protocol, payload, clients, window (or an open rate), work per
 *                      echo, TLS provider, measured and warm-up seconds. Its ioModel, ioThreads, transport, execution,
 *                      offload, offloadThreads and repetitions are not used: the candidates set them, the race the
 *                      repetitions
 * @param budgetSeconds wall time the race may take, 1 … 86,400 s: it plans its rounds by it and starts no round that
 *                      would not fit
 * @param p99BoundUs    optional: a candidate whose p99 is established over this bound, µs, is eliminated
 * @param minimumEffect the smallest difference that counts, 0 … 1 (0.05: 5 %): a candidate is eliminated only when
 *                      established worse by at least this much, and candidates within it of each other are a tie
 * @param alpha         the chance, over the whole race, of eliminating a candidate that is not worse or of calling
 *                      two candidates equivalent that are not, (0, 0.5]; 0.05 by default
 * @param ioModels      optional: the IO models to race (default shared and sharded)
 * @param ioThreads     optional: the thread counts to race (default 1, 2, 4, … up to this machine's
 *                      cores, and the cores themselves; sharded from 2)
 * @param transports    optional: the Netty transports to race, each auto, nio, epoll or io_uring (default every one
 *                      that loads here, auto not among them); virtual-threads execution always runs on the JDK's
 *                      sockets
 * @param executions    optional: the executions to race (default netty; reactive and virtual-threads where the
 *                      protocol has ends for them)
 * @param offloads      optional: where the server's work may run (default loop; with work or a blocking call in the
 *                      load, loop, executor and virtual-threads); virtual-threads execution runs on the loop only
 * @param offloadThreads optional: the executor offload's pool sizes to race, each 1 … 1,024 (default 4, 16, 64, …
 *                      up to the messages the load keeps in flight, at most {@value #DEFAULT_MAX_OFFLOAD_THREADS},
 *                      and that bound itself)
 */
@Schema(description = "A load and a time budget: loopbench races the ways to run it here and names the one to use.")
public record RecommendationSpec(
        RunSpec load,
        @Schema(example = "300", requiredMode = Schema.RequiredMode.REQUIRED) Double budgetSeconds,
        @Schema(example = "1000") Double p99BoundUs,
        @Schema(defaultValue = "0.05") Double minimumEffect,
        @Schema(defaultValue = "0.05") Double alpha,
        @Schema(example = "[\"shared\", \"sharded\"]") List<IoModel> ioModels,
        @Schema(example = "[1, 2]") List<Integer> ioThreads,
        @Schema(example = "[\"epoll\"]") List<Transport> transports,
        @Schema(example = "[\"netty\"]") List<Execution> executions,
        @Schema(example = "[\"loop\", \"executor\"]") List<Offload> offloads,
        @Schema(example = "[4, 16, 64]") List<Integer> offloadThreads) implements Validatable {

    public static final double MAX_BUDGET_SECONDS = 86_400;
    /** The largest pool size raced by default: past it, a pool's threads cost more than the calls they overlap. */
    public static final int DEFAULT_MAX_OFFLOAD_THREADS = 64;

    /** A recommendation that races layouts only, the server's work where the load says. */
    public RecommendationSpec(RunSpec load, Double budgetSeconds, Double p99BoundUs, Double minimumEffect,
                              Double alpha, List<IoModel> ioModels, List<Integer> ioThreads,
                              List<Transport> transports, List<Execution> executions) {
        this(load, budgetSeconds, p99BoundUs, minimumEffect, alpha, ioModels, ioThreads, transports, executions, null,
                null);
    }

    /** The spec with its defaults filled in (the lists stay null: they default per machine, in {@link #candidates}). */
    public RecommendationSpec effective() {
        RunSpec l = (load != null ? load : RunSpec.defaults()).toBuilder().repetitions(1).build();
        return new RecommendationSpec(l, budgetSeconds, p99BoundUs, minimumEffect != null ? minimumEffect : 0.05,
                alpha != null ? alpha : 0.05, ioModels, ioThreads, transports, executions, offloads, offloadThreads);
    }

    /** What the race ranks by: p99 under an open load, throughput under a closed one. */
    public RaceMetric metric() {
        return load.load() == LoadModel.OPEN ? RaceMetric.P99 : RaceMetric.THROUGHPUT;
    }

    /** Every rule the spec breaks, the load's fields prefixed {@code load.}; call on {@link #effective()}. */
    @Override
    public List<Violation> violations() {
        List<Violation> out = new ArrayList<>();
        for (Violation v : load.violations()) {
            out.add(new Violation("load." + v.field(), v.value(), v.allowed()));
        }
        if (load.target() != null) {
            out.add(new Violation("load.target", load.target(), "none: a recommendation races echo pairs on this "
                    + "host, the server's layout being one of the candidates"));
        }
        if (budgetSeconds == null || !(budgetSeconds >= 1 && budgetSeconds <= MAX_BUDGET_SECONDS)) {
            out.add(new Violation("budgetSeconds", String.valueOf(budgetSeconds), "1 … 86400 (required)"));
        }
        if (p99BoundUs != null && !(p99BoundUs > 0 && Double.isFinite(p99BoundUs))) {
            out.add(new Violation("p99BoundUs", String.valueOf(p99BoundUs), "over 0, or omitted"));
        }
        if (!(minimumEffect >= 0 && minimumEffect <= 1)) {
            out.add(new Violation("minimumEffect", String.valueOf(minimumEffect), "0 … 1"));
        }
        if (!(alpha > 0 && alpha <= 0.5)) {
            out.add(new Violation("alpha", String.valueOf(alpha), "over 0, at most 0.5"));
        }
        list(out, "ioModels", ioModels);
        list(out, "ioThreads", ioThreads);
        list(out, "transports", transports);
        list(out, "executions", executions);
        list(out, "offloads", offloads);
        list(out, "offloadThreads", offloadThreads);
        if (offloadThreads != null) {
            for (Integer t : offloadThreads) {
                if (t == null || t < 1 || t > RunSpec.MAX_OFFLOAD_THREADS) {
                    out.add(new Violation("offloadThreads", String.valueOf(t), "each 1 … "
                            + String.format(Locale.ROOT, "%,d", RunSpec.MAX_OFFLOAD_THREADS)));
                }
            }
        }
        if (ioThreads != null) {
            for (Integer t : ioThreads) {
                if (t == null || t < 1 || t > RunSpec.MAX_IO_THREADS) {
                    out.add(new Violation("ioThreads", String.valueOf(t), "each 1 … " + RunSpec.MAX_IO_THREADS));
                }
            }
        }
        if (transports != null) {
            for (Transport t : transports) {
                if (t == null || t == Transport.JDK) {
                    // auto is Netty's own default (the native transport that loads, else nio): a user's real choice,
                    // and, beside the transport it resolves to, an A/A race
                    out.add(new Violation("transports", String.valueOf(t), "each auto, nio, epoll or io_uring (jdk "
                            + "is virtual-threads execution's own)"));
                }
            }
        }
        return out;
    }

    private static void list(List<Violation> out, String field, List<?> values) {
        if (values != null && (values.isEmpty() || values.stream().anyMatch(java.util.Objects::isNull))) {
            out.add(new Violation(field, String.valueOf(values), "one value or more, or omitted for the default"));
        } else if (values != null && values.stream().distinct().count() < values.size()) {
            // a value twice would race a candidate against itself
            out.add(new Violation(field, String.valueOf(values), "each value once"));
        }
    }

    /**
     * The candidates that make sense for this load here, in a fixed order (IO model, threads, execution, transport,
     * offload, pool size): every IO model × thread count (sharded from 2 threads: sharded 1 is shared 1) × execution
     * that has ends for the protocol and keeps its window in flight × transport that loads × offload (the executor at
     * each pool size); virtual-threads only shared (its carriers are one pool), on the JDK's sockets and the loop.
     * With work or a blocking call in the load and no transports given, only the first that loads (epoll, io_uring,
     * nio) is raced, so that the budget goes to where the work runs. Call on {@link #effective()}.
     *
     * @param cores   this machine's cores (the default thread counts go up to them)
     * @param loads   whether a transport loads here
     */
    public List<Candidate> candidates(int cores, Predicate<Transport> loads) {
        List<IoModel> models = ioModels != null ? ioModels : List.of(IoModel.SHARED, IoModel.SHARDED);
        List<Integer> threads = ioThreads != null ? ioThreads : defaultThreads(cores);
        List<Transport> nettyTransports = (transports != null ? transports
                : List.of(Transport.EPOLL, Transport.IO_URING, Transport.NIO)).stream().filter(loads).toList();
        if (transports == null && load.serverWork() && !nettyTransports.isEmpty()) {
            nettyTransports = List.of(nettyTransports.getFirst());
        }
        List<Execution> execs = executions != null ? executions : List.of(Execution.NETTY);
        List<Candidate> out = new ArrayList<>();
        for (IoModel m : models) {
            for (int t : threads) {
                if (m == IoModel.SHARDED && t == 1) {
                    continue;
                }
                for (Execution e : execs) {
                    if (!load.protocol().runsOn(e) || (load.window() > 1 && !load.protocol().pipelinesOn(e))) {
                        continue;
                    }
                    if (e == Execution.VIRTUAL_THREADS) {
                        if (m == IoModel.SHARED) {
                            out.add(new Candidate(m, t, Transport.JDK, e));
                        }
                        continue;
                    }
                    for (Transport tr : nettyTransports) {
                        for (Offload o : racedOffloads()) {
                            for (Integer size : o == Offload.EXECUTOR ? racedPoolSizes() : List.<Integer>of(0)) {
                                out.add(new Candidate(m, t, tr, e, o, size));
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * The offloads raced: those given, else the loop, and with work in the load every offload the protocol has
     * (grpc-default is grpc's own).
     */
    List<Offload> racedOffloads() {
        if (offloads != null) {
            return offloads;
        }
        return load.serverWork() ? Arrays.stream(Offload.values())
                .filter(o -> o != Offload.GRPC_DEFAULT || load.protocol().grpc()).toList()
                : List.of(Offload.LOOP);
    }

    /**
     * The pool sizes raced: those given, else 4, 16, 64, … up to the bound — the messages the load keeps in flight
     * (no more can be in work at once), at most {@value #DEFAULT_MAX_OFFLOAD_THREADS} — and the bound itself.
     */
    List<Integer> racedPoolSizes() {
        if (offloadThreads != null) {
            return offloadThreads;
        }
        int bound = (int) Math.min(DEFAULT_MAX_OFFLOAD_THREADS, (long) load.clients() * load.window());
        List<Integer> out = new ArrayList<>();
        for (int n = 4; n < bound; n *= 4) {
            out.add(n);
        }
        out.add(bound);
        return out;
    }

    /** 1, 2, 4, … up to {@code cores}, and {@code cores} itself. */
    static List<Integer> defaultThreads(int cores) {
        List<Integer> out = new ArrayList<>();
        for (int t = 1; t < cores; t *= 2) {
            out.add(t);
        }
        out.add(Math.max(1, cores));
        return out;
    }

    /** The refusal of a load that fewer than two candidates can run here, or null. */
    public Violation tooFewCandidates(List<Candidate> candidates) {
        if (candidates.size() >= 2) {
            return null;
        }
        return new Violation("candidates", candidates.isEmpty() ? "none" : candidates.getFirst().label(),
                String.format(Locale.ROOT, "at least two ways to run this load here (ioModels %s × ioThreads %s × "
                        + "transports %s × executions %s × offloads %s); with one, measure it instead", ioModels,
                        ioThreads, transports, executions, offloads));
    }
}
