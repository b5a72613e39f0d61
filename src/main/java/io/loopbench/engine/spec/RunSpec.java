package io.loopbench.engine.spec;

import io.loopbench.engine.message.MessageFormat;

import java.util.List;

/**
 * What one measurement runs. Every field may be given as {@code null}, which takes its default; the record then
 * holds the effective value, so a stored or printed spec is always complete. Ranges are checked by
 * {@link #violations()}, not by the constructor, so that all broken rules can be reported at once.
 *
 * <p>Each field's meaning, range, default and where it applies are declared once, in {@link SpecField}, from which
 * the range checks, the API's schema and the command line's help are made.
 */
public record RunSpec(
        Protocol protocol,
        Integer payloadBytes,
        Integer clients,
        Integer window,
        WindowMode windowMode,
        IoModel ioModel,
        Integer ioThreads,
        Transport transport,
        Integer work,
        Double warmupSeconds,
        Double seconds,
        Integer repetitions,
        AddressFamily addressFamily,
        Integer lossTimeoutMillis,
        String target,
        LoadModel load,
        Double rate,
        Execution execution,
        WarmupMode warmupMode,
        Double warmupMaxSeconds,
        Integer datagramsPerRead,
        String certsDirectory,
        TlsProvider tlsProvider,
        Integer timelineIntervalMillis,
        Profiling profiling,
        Integer blockingMicros,
        Offload offload,
        Integer offloadThreads,
        GrpcMethod grpcMethod) {

    public static final int MIN_PAYLOAD = MessageFormat.HEADER_BYTES;
    public static final int MAX_PAYLOAD = MessageFormat.MAX_BYTES;
    public static final int MAX_CLIENTS = 1024;
    public static final int MAX_WINDOW = 1024;
    public static final int MAX_IO_THREADS = 64;
    public static final int MAX_WORK = 10_000_000;
    public static final double MAX_SECONDS = 3600;
    public static final int MAX_REPETITIONS = 100;
    public static final int MAX_LOSS_TIMEOUT_MILLIS = 60_000;
    public static final double MAX_RATE = 10_000_000;
    /** arknet's cross-field limit on the payload bytes a run may have in flight. */
    public static final long MAX_OUTSTANDING_BYTES = 256L * 1024 * 1024;
    /** Virtual-threads execution on TCP: most bytes one connection may have in flight (arknet's largest case). */
    public static final long MAX_BLOCKING_WINDOW_BYTES = 256L * 1024;
    /** Auto warm-up's default cap, seconds. */
    public static final double DEFAULT_WARMUP_MAX_SECONDS = 10;
    /**
     * The measured phase's default length: as long as a fresh JVM's figure needs, no longer. Within one JVM, phases of
     * 1, 2 and 3 s spread alike (1-4 % throughput, 2-8 % p99) and no less than fresh JVMs spread from one another, so
     * a longer phase does not make a forked repetition's figure surer; 1 s phases spread more on https and let one
     * harness compilation break the JIT's share (docs/performance.md, "Measured-phase length").
     */
    public static final double DEFAULT_SECONDS = 2.0;
    /** The most datagrams one batched read may take. */
    public static final int MAX_DATAGRAMS_PER_READ = 64;
    /** The timeline's interval: its default and range, ms, and the most intervals one phase may have. */
    public static final int DEFAULT_TIMELINE_INTERVAL_MILLIS = 100;
    public static final int MIN_TIMELINE_INTERVAL_MILLIS = 10;
    public static final int MAX_TIMELINE_INTERVAL_MILLIS = 10_000;
    public static final int MAX_TIMELINE_INTERVALS = 10_000;
    /** The longest blocking call per echo, µs (1 s), and the most threads an offload pool may have. */
    public static final int MAX_BLOCKING_MICROS = 1_000_000;
    public static final int MAX_OFFLOAD_THREADS = 1024;
    /** An executor offload's default pool size: Netty's and Reactor's defaults depend on the cores; this does not. */
    public static final int DEFAULT_OFFLOAD_THREADS = 16;

    public RunSpec {
        protocol = orDefault(protocol, Protocol.TCP);
        payloadBytes = orDefault(payloadBytes, 1024);
        clients = orDefault(clients, 16);
        window = orDefault(window, 16);
        windowMode = orDefault(windowMode, WindowMode.SLIDING);
        ioModel = orDefault(ioModel, IoModel.SHARED);
        ioThreads = orDefault(ioThreads, 1);
        transport = orDefault(transport, Transport.AUTO);
        work = orDefault(work, 0);
        warmupSeconds = orDefault(warmupSeconds, 1.0);
        seconds = orDefault(seconds, DEFAULT_SECONDS);
        repetitions = orDefault(repetitions, 3);
        addressFamily = orDefault(addressFamily, AddressFamily.IPV4);
        lossTimeoutMillis = orDefault(lossTimeoutMillis, 1000);
        load = orDefault(load, LoadModel.CLOSED);
        execution = orDefault(execution, Execution.NETTY);
        warmupMode = orDefault(warmupMode, WarmupMode.AUTO);
        warmupMaxSeconds = orDefault(warmupMaxSeconds, Math.max(DEFAULT_WARMUP_MAX_SECONDS, warmupSeconds));
        datagramsPerRead = orDefault(datagramsPerRead, 1);
        tlsProvider = orDefault(tlsProvider, TlsProvider.AUTO);
        timelineIntervalMillis = orDefault(timelineIntervalMillis,
                Math.max(DEFAULT_TIMELINE_INTERVAL_MILLIS, leastTimelineIntervalMillis(
                        warmupMode == WarmupMode.AUTO && warmupSeconds > 0 ? warmupMaxSeconds : warmupSeconds,
                        seconds)));
        profiling = orDefault(profiling, Profiling.OFF);
        blockingMicros = orDefault(blockingMicros, 0);
        offload = orDefault(offload, Offload.LOOP);
        offloadThreads = orDefault(offloadThreads, DEFAULT_OFFLOAD_THREADS);
        grpcMethod = orDefault(grpcMethod, GrpcMethod.UNARY);
    }

    /** Whether the server does anything per message beyond checking it: CPU work or a blocking call. */
    public boolean serverWork() {
        return work > 0 || blockingMicros > 0;
    }

    /**
     * The violations of a protocol's TLS settings, as a run's: certificates and a provider only for tcps, wss and https,
     * a certificates directory that loads, a provider that loads (and none but the JDK's for virtual threads).
     */
    public static List<Violation> tlsViolations(Protocol protocol, String certsDirectory, TlsProvider provider,
                                                Execution execution) {
        return SpecRules.tlsViolations(protocol, certsDirectory, provider, execution);
    }

    /** The specification with every field at its default. */
    public static RunSpec defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this spec's values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Every rule this spec breaks, in field order; empty when it is valid. */
    public List<Violation> violations() {
        return SpecRules.violations(this);
    }

    /** Throws {@link InvalidSpecException} listing every violation, if there is any. */
    public RunSpec validated() {
        List<Violation> v = violations();
        if (!v.isEmpty()) {
            throw new InvalidSpecException(v);
        }
        return this;
    }

    /**
     * The most wall time one repetition spends in its phases (auto warm-up at its cap), excluding set-up and the at
     * most 2 s drain per phase.
     */
    public double phaseSeconds() {
        return warmupLimitSeconds() + seconds;
    }

    /** How long the warm-up may run: warmupSeconds, or with auto warm-up its cap (0 when warmupSeconds is 0). */
    public double warmupLimitSeconds() {
        return warmupMode == WarmupMode.AUTO && warmupSeconds > 0 ? warmupMaxSeconds : warmupSeconds;
    }

    /** The shortest interval that gives each phase at most {@link #MAX_TIMELINE_INTERVALS} intervals, ms. */
    static int leastTimelineIntervalMillis(double warmupLimitSeconds, double seconds) {
        double longest = Math.max(warmupLimitSeconds, seconds);
        return (int) Math.min(Integer.MAX_VALUE, Math.ceil(longest * 1000 / MAX_TIMELINE_INTERVALS));
    }

    private static <T> T orDefault(T value, T fallback) {
        return value != null ? value : fallback;
    }

    /** Fluent construction; fields left unset take their defaults. */
    public static final class Builder {
        private Protocol protocol;
        private Integer payloadBytes;
        private Integer clients;
        private Integer window;
        private WindowMode windowMode;
        private IoModel ioModel;
        private Integer ioThreads;
        private Transport transport;
        private Integer work;
        private Double warmupSeconds;
        private Double seconds;
        private Integer repetitions;
        private AddressFamily addressFamily;
        private Integer lossTimeoutMillis;
        private String target;
        private LoadModel load;
        private Double rate;
        private Execution execution;
        private WarmupMode warmupMode;
        private Double warmupMaxSeconds;
        private Integer datagramsPerRead;
        private String certsDirectory;
        private TlsProvider tlsProvider;
        private Integer timelineIntervalMillis;
        private Profiling profiling;
        private Integer blockingMicros;
        private Offload offload;
        private Integer offloadThreads;
        private GrpcMethod grpcMethod;

        private Builder() {
        }

        private Builder(RunSpec s) {
            protocol = s.protocol;
            payloadBytes = s.payloadBytes;
            clients = s.clients;
            window = s.window;
            windowMode = s.windowMode;
            ioModel = s.ioModel;
            ioThreads = s.ioThreads;
            transport = s.transport;
            work = s.work;
            warmupSeconds = s.warmupSeconds;
            seconds = s.seconds;
            repetitions = s.repetitions;
            addressFamily = s.addressFamily;
            lossTimeoutMillis = s.lossTimeoutMillis;
            target = s.target;
            load = s.load;
            rate = s.rate;
            execution = s.execution;
            warmupMode = s.warmupMode;
            warmupMaxSeconds = s.warmupMaxSeconds;
            datagramsPerRead = s.datagramsPerRead;
            certsDirectory = s.certsDirectory;
            tlsProvider = s.tlsProvider;
            timelineIntervalMillis = s.timelineIntervalMillis;
            profiling = s.profiling;
            blockingMicros = s.blockingMicros;
            offload = s.offload;
            offloadThreads = s.offloadThreads;
            grpcMethod = s.grpcMethod;
        }

        public Builder protocol(Protocol v) { protocol = v; return this; }
        public Builder payloadBytes(Integer v) { payloadBytes = v; return this; }
        public Builder clients(Integer v) { clients = v; return this; }
        public Builder window(Integer v) { window = v; return this; }
        public Builder windowMode(WindowMode v) { windowMode = v; return this; }
        public Builder ioModel(IoModel v) { ioModel = v; return this; }
        public Builder ioThreads(Integer v) { ioThreads = v; return this; }
        public Builder transport(Transport v) { transport = v; return this; }
        public Builder work(Integer v) { work = v; return this; }
        public Builder warmupSeconds(Double v) { warmupSeconds = v; return this; }
        public Builder seconds(Double v) { seconds = v; return this; }
        public Builder repetitions(Integer v) { repetitions = v; return this; }
        public Builder addressFamily(AddressFamily v) { addressFamily = v; return this; }
        public Builder lossTimeoutMillis(Integer v) { lossTimeoutMillis = v; return this; }
        public Builder target(String v) { target = v; return this; }
        public Builder load(LoadModel v) { load = v; return this; }
        public Builder rate(Double v) { rate = v; return this; }
        public Builder execution(Execution v) { execution = v; return this; }
        public Builder warmupMode(WarmupMode v) { warmupMode = v; return this; }
        public Builder warmupMaxSeconds(Double v) { warmupMaxSeconds = v; return this; }
        public Builder datagramsPerRead(Integer v) { datagramsPerRead = v; return this; }
        public Builder certsDirectory(String v) { certsDirectory = v; return this; }
        public Builder tlsProvider(TlsProvider v) { tlsProvider = v; return this; }
        public Builder timelineIntervalMillis(Integer v) { timelineIntervalMillis = v; return this; }
        public Builder profiling(Profiling v) { profiling = v; return this; }
        public Builder blockingMicros(Integer v) { blockingMicros = v; return this; }
        public Builder offload(Offload v) { offload = v; return this; }
        public Builder offloadThreads(Integer v) { offloadThreads = v; return this; }
        public Builder grpcMethod(GrpcMethod v) { grpcMethod = v; return this; }

        public RunSpec build() {
            return new RunSpec(protocol, payloadBytes, clients, window, windowMode, ioModel, ioThreads, transport,
                    work, warmupSeconds, seconds, repetitions, addressFamily, lossTimeoutMillis, target, load, rate,
                    execution, warmupMode, warmupMaxSeconds, datagramsPerRead, certsDirectory, tlsProvider,
                    timelineIntervalMillis, profiling, blockingMicros, offload, offloadThreads, grpcMethod);
        }
    }
}
