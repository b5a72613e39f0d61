package io.loopbench.engine.spec;

import io.loopbench.engine.message.MessageFormat;

import java.util.List;

/**
 * What one measurement runs. Every field may be given as {@code null}, which takes its default; the record then
 * holds the effective value, so a stored or printed spec is always complete. Ranges are checked by
 * {@link #violations()}, not by the constructor, so that all broken rules can be reported at once.
 *
 * @param protocol          {@code tcp}, {@code udp}, {@code tcps} (TLS over TCP, TCP's framing), {@code websocket},
 *                          {@code wss}, {@code http} or {@code https} (see {@link Protocol})
 * @param payloadBytes      bytes per message, 16-byte header included (16 … 65507)
 * @param clients           client connections (UDP: client sockets), 1 … 1024
 * @param window            messages in flight per client, 1 … 1024
 * @param windowMode        {@code sliding} or {@code batch}
 * @param ioModel           {@code shared} or {@code sharded}
 * @param ioThreads         event-loop threads, 1 … 64
 * @param transport         {@code auto}, {@code nio}, {@code epoll} or {@code io_uring}; {@code jdk} (the JDK's
 *                          sockets) with virtual-threads execution, where {@code auto} means it
 * @param work              xorshift iterations the server runs per echoed message, 0 … 10,000,000
 * @param warmupSeconds     warm-up phase before each measured phase, 0 … 3600 (0 skips it); with {@code auto} warm-up
 *                          its least length
 * @param seconds           measured phase, more than 0 and at most 3600
 * @param repetitions       independent repetitions, 1 … 100
 * @param addressFamily     {@code ipv4} (127.0.0.1) or {@code ipv6} (::1)
 * @param lossTimeoutMillis UDP only: how long a message may go unanswered before it is counted lost and its window
 *                          slot is reused, 1 … 60000
 * @param target            null: a loopback echo pair in this process; {@code host:port}: only the client side, against
 *                          the echo server there (which must echo bytes verbatim)
 * @param load              {@code closed} (default) or {@code open}: messages sent at {@code rate} whatever the replies
 * @param rate              open load only: messages per second, all clients together, more than 0, at most 10,000,000
 * @param execution         {@code netty} (default), {@code reactive} or {@code virtual-threads}: how both ends are
 *                          programmed
 * @param warmupMode        {@code auto} (default): warm up for at least warmupSeconds, then until throughput is stable
 *                          and the JIT quiet, at most warmupMaxSeconds; {@code fixed}: exactly warmupSeconds
 * @param warmupMaxSeconds  auto warm-up's cap, warmupSeconds … 3600; default the larger of 10 and warmupSeconds
 * @param datagramsPerRead  UDP only: datagrams one socket read may take, 1 … 64; 1 (default) reads one per system call
 *                          as arknet does, more reads a batch with {@code recvmmsg} (epoll transport, netty or
 *                          reactive execution)
 * @param certsDirectory    tcps, wss and https only: a directory holding the server's {@code server.pem}
 *                          (certificate chain), {@code server-key.pem} (its PKCS#8 key) and the client's
 *                          {@code ca.pem}; null (default): a throw-away CA and a certificate for 127.0.0.1 and ::1,
 *                          made once per JVM
 * @param tlsProvider       tcps, wss and https only: {@code auto} (default: Netty's rule, OpenSSL where it loads, else
 *                          the JDK's), {@code jdk} or {@code openssl} (Netty's BoringSSL provider) for the netty and
 *                          reactive executions' ends; virtual threads' sockets are always the JDK's. Each repetition's
 *                          {@code tls} names the provider used, the environment's {@code tlsProviders} why
 * @param timelineIntervalMillis the timeline's interval, ms, 10 … 10000, and long enough that a phase has at most
 *                          {@value #MAX_TIMELINE_INTERVALS} intervals; default 100, or that least length for longer
 *                          phases. One longer than the warm-up leaves the change of interval to the measured phase,
 *                          where its first compilation may then show
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
        Integer timelineIntervalMillis) {

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
    /** The most datagrams one batched read may take. */
    public static final int MAX_DATAGRAMS_PER_READ = 64;
    /** The timeline's interval: its default and range, ms, and the most intervals one phase may have. */
    public static final int DEFAULT_TIMELINE_INTERVAL_MILLIS = 100;
    public static final int MIN_TIMELINE_INTERVAL_MILLIS = 10;
    public static final int MAX_TIMELINE_INTERVAL_MILLIS = 10_000;
    public static final int MAX_TIMELINE_INTERVALS = 10_000;

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
        seconds = orDefault(seconds, 3.0);
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
    }

    /** The specification with every field at its default. */
    /**
     * The violations of a protocol's TLS settings, as a run's: certificates and a provider only for tcps, wss and https,
     * a certificates directory that loads, a provider that loads (and none but the JDK's for virtual threads).
     */
    public static List<Violation> tlsViolations(Protocol protocol, String certsDirectory, TlsProvider provider,
                                                Execution execution) {
        return SpecRules.tlsViolations(protocol, certsDirectory, provider, execution);
    }

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

        public RunSpec build() {
            return new RunSpec(protocol, payloadBytes, clients, window, windowMode, ioModel, ioThreads, transport,
                    work, warmupSeconds, seconds, repetitions, addressFamily, lossTimeoutMillis, target, load, rate,
                    execution, warmupMode, warmupMaxSeconds, datagramsPerRead, certsDirectory, tlsProvider,
                    timelineIntervalMillis);
        }
    }
}
