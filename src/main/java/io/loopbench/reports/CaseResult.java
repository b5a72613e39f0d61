package io.loopbench.reports;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.Summary;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Transport;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One measured case of a report: what ran and its summary over repetitions.
 *
 * @param spec        the case's specification
 * @param transport   the concrete transport used
 * @param summary     median/min/max over repetitions; null when the case failed
 * @param repetitions the repetitions that ran, failed ones included, in index order
 * @param error       why the case failed, or null
 */
public record CaseResult(RunSpec spec, Transport transport, Summary summary, List<RepetitionResult> repetitions,
                         String error) {

    public CaseResult {
        repetitions = List.copyOf(repetitions);
    }

    public boolean ok() {
        return summary != null;
    }

    /**
     * What makes this case's figures doubtful: every warning of its repetitions, each prefixed "repetition N: " (as
     * the summary holds them); empty when none, when the case failed, or in records made before warnings existed.
     */
    public List<String> warnings() {
        return summary == null || summary.warnings() == null ? List.of() : summary.warnings();
    }

    /**
     * What a reader of this case should know without doubting its figures: every note of its repetitions, prefixed
     * as the warnings are; empty when none, when the case failed, or in records made before notes existed.
     */
    public List<String> notes() {
        return summary == null || summary.notes() == null ? List.of() : summary.notes();
    }

    /**
     * Whether a passed repetition lacks the self-checks (JIT activity, fairness): it was stored before the engine
     * made them, so nothing says its measured phase was steady and fair.
     */
    public boolean predatesSelfChecks() {
        return repetitions.stream().anyMatch(r -> r.ok() && (r.jvm().jit() == null || r.checks().fairness() == null));
    }

    /** The repetitions that failed, each as "repetition N: why". */
    public List<String> failures() {
        return repetitions.stream().filter(r -> !r.ok())
                .map(r -> "repetition " + r.repetition() + ": " + r.error()).toList();
    }

    /**
     * The first repetition failed as unfair (every echo validated, but a client starved) or stalled (a message waited
     * over a quarter of the phase), as "repetition N: unfair: why" or "repetition N: stalled: why"; null when none
     * did.
     */
    public String unfairFailure() {
        return repetitions.stream().filter(CaseResult::unfair).findFirst()
                .map(r -> "repetition " + r.repetition() + ": " + r.error()).orElse(null);
    }

    private static boolean unfair(RepetitionResult r) {
        return !r.ok() && r.failure() != null && r.failure().unfair();
    }

    /**
     * Repetition r of this case beside repetition r of {@code other} (this one first), for every r at which both are
     * {@code kept}: the pairs a matched comparison tests, since a matrix that alternates cases runs repetition r of
     * each back to back.
     */
    public List<RepetitionResult[]> matchedWith(CaseResult other, Predicate<RepetitionResult> kept) {
        Map<Integer, RepetitionResult> theirs = new HashMap<>();
        other.repetitions().stream().filter(kept).forEach(r -> theirs.putIfAbsent(r.repetition(), r));
        return repetitions.stream().filter(r -> kept.test(r) && theirs.containsKey(r.repetition()))
                .map(r -> new RepetitionResult[] {r, theirs.get(r.repetition())}).toList();
    }

    /**
     * The repetition of median throughput among those that passed with a timeline (of an even number, the lower of
     * the middle two): the one a report shows over time.
     */
    public java.util.Optional<RepetitionResult> medianTimelineRepetition() {
        List<RepetitionResult> withTimeline = repetitions.stream()
                .filter(r -> r.ok() && r.timeline() != null && r.throughput().roundTripsPerSecond() != null)
                .sorted(java.util.Comparator.comparingDouble(rep -> rep.throughput().roundTripsPerSecond())).toList();
        return withTimeline.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.of(withTimeline.get((withTimeline.size() - 1) / 2));
    }

    /**
     * The IO profile as the charts name it: {@code shared 2}, {@code sharded 4}; with an offload, where the server's
     * work runs too: {@code shared 1 · executor 16}, {@code shared 1 · virtual threads}.
     */
    public String ioLabel() {
        return spec.ioModel().label() + " " + spec.ioThreads() + offloadLabel();
    }

    /** The IO profile in arknet's words: "1 group / 2 threads", "4 loops / 1 thread each", and the offload's. */
    public String ioWords() {
        int n = spec.ioThreads();
        return (spec.ioModel() == IoModel.SHARED
                ? "1 loop group / " + n + (n == 1 ? " thread" : " threads")
                : n + " loops / 1 thread each") + offloadLabel();
    }

    /** Where the server's work runs, as a label's suffix: empty on the loop. */
    String offloadLabel() {
        return switch (spec.offload()) {
            case LOOP -> "";
            case EXECUTOR -> " · executor " + spec.offloadThreads();
            case VIRTUAL_THREADS -> " · virtual threads";
            case GRPC_DEFAULT -> " · grpc default executor";
        };
    }

    /**
     * Sort order of IO profiles: shared before sharded, fewer threads first; then on the loop, executors from the
     * smallest pool, virtual threads.
     */
    long ioOrder() {
        long layout = (spec.ioModel() == IoModel.SHARED ? 0 : 1000) + spec.ioThreads();
        long offload = switch (spec.offload()) {
            case LOOP -> 0;
            case EXECUTOR -> spec.offloadThreads();
            case VIRTUAL_THREADS -> RunSpec.MAX_OFFLOAD_THREADS + 1;
            case GRPC_DEFAULT -> RunSpec.MAX_OFFLOAD_THREADS + 2;
        };
        return layout * 10_000 + offload;
    }

    /** Everything but the IO profile and the repetition count: the cases one comparison group holds. */
    public String groupKey() {
        return curveKey() + "/" + loadKey();
    }

    /** Everything but the IO profile, the open-load rate and the repetition count: the cases of one rate curve. */
    public String curveKey() {
        return conditionsKey() + "/" + spec.execution().label();
    }

    /** The case itself, without its repetition count: how comparisons match cases. */
    public String caseKey() {
        return groupKey() + "/" + ioLabel();
    }

    /** The case without its execution and repetition count: how a matched comparison of executions pairs cases. */
    String pairKey() {
        return conditionsKey() + "/" + loadKey() + "/" + ioLabel();
    }

    /**
     * The case without its protocol, that protocol's own options and its repetition count: how the protocol cost
     * table pairs cases.
     */
    String protocolPairKey() {
        return shapeKey() + "/" + spec.execution().label() + "/" + loadKey() + "/" + ioLabel();
    }

    private String conditionsKey() {
        RunSpec s = spec;
        return String.join("/", s.protocol().label(), shapeKey(), String.valueOf(s.datagramsPerRead()),
                s.tlsProvider().label(), String.valueOf(s.certsDirectory()), s.grpcMethod().label());
    }

    /** What every protocol of a case shares: message size, load shape, work, transport, phases and target. */
    private String shapeKey() {
        RunSpec s = spec;
        return String.join("/", String.valueOf(s.payloadBytes()), String.valueOf(s.clients()),
                String.valueOf(s.window()), s.windowMode().label(), String.valueOf(s.work()),
                String.valueOf(s.blockingMicros()), s.transport().label(),
                s.addressFamily().label(), String.valueOf(s.seconds()), String.valueOf(s.warmupSeconds()),
                String.valueOf(s.target()));
    }

    private String loadKey() {
        return spec.load().label() + "/" + spec.rate();
    }

    /** "TCP / 1024 B / 16 clients × window 16 / no added computation" (plus window mode, transport and execution
     * when not the defaults, and the open-load rate). */
    public String groupTitle() {
        return withRate(curveTitle());
    }

    /** The group title without the open-load rate: the title of a rate curve. */
    public String curveTitle() {
        return spec.execution() == Execution.NETTY ? conditionsTitle()
                : conditionsTitle() + " / " + spec.execution().label() + " execution";
    }

    /** The case without its execution: "TCP / 1024 B / … / shared 2", the row of a matched comparison. */
    String pairTitle() {
        return withRate(conditionsTitle()) + " / " + ioLabel();
    }

    private String withRate(String title) {
        return spec.rate() == null ? title
                : title + String.format(Locale.ROOT, " / open load at %,.0f messages/s", spec.rate());
    }

    private String conditionsTitle() {
        return spec.protocol().label().toUpperCase(Locale.ROOT) + " / " + shapeTitle() + protocolOptionsTitle();
    }

    /** The case without its protocol, as the protocol cost table names it: "1024 B / … / shared 1". */
    String protocolPairTitle() {
        String shape = spec.execution() == Execution.NETTY ? shapeTitle()
                : shapeTitle() + " / " + spec.execution().label() + " execution";
        return withRate(shape) + " / " + ioLabel();
    }

    /** The protocol with its own options: "tcps", "tcps / TLS openssl", "udp / recvmmsg ≤ 16 …". */
    String protocolTitle() {
        String options = protocolOptionsTitle();
        return spec.protocol().label() + (options.isEmpty() ? "" : options);
    }

    private String shapeTitle() {
        RunSpec s = spec;
        StringBuilder b = new StringBuilder().append(s.payloadBytes()).append(" B / ")
                .append(s.clients()).append(s.clients() == 1 ? " client" : " clients")
                .append(" × window ").append(s.window()).append(" / ")
                .append(s.work() == 0 ? "no added computation"
                        : String.format(Locale.ROOT, "%,d CPU iterations per echo", s.work()));
        if (s.blockingMicros() > 0) {
            b.append(String.format(Locale.ROOT, " / %,d µs blocking per echo", s.blockingMicros()));
        }
        if (s.windowMode() != io.loopbench.engine.spec.WindowMode.SLIDING) {
            b.append(" / ").append(s.windowMode().label()).append(" window");
        }
        if (s.transport() != Transport.AUTO) {
            b.append(" / ").append(s.transport().label());
        }
        return b.toString();
    }

    private String protocolOptionsTitle() {
        StringBuilder b = new StringBuilder();
        if (spec.protocol().secure() && spec.tlsProvider() != TlsProvider.AUTO) {
            b.append(" / TLS ").append(spec.tlsProvider().label());
        }
        if (spec.datagramsPerRead() > 1) {
            b.append(" / recvmmsg ≤ ").append(spec.datagramsPerRead()).append(" datagrams per read");
        }
        if (spec.protocol().grpc()) {
            b.append(" / ").append(spec.grpcMethod() == GrpcMethod.STREAM ? "bidirectional stream" : "unary calls");
        }
        return b.toString();
    }
}
