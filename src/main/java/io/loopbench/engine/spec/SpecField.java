package io.loopbench.engine.spec;

import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Each field of a {@link RunSpec}, declared once: its name (the record component's, the JSON property's), the command
 * line's flag, its range, what it applies to, and its help. The spec's range checks, the API's schema of a run request,
 * the command line's help and the docs' table of flags are all made from, or checked against, these. A field's fixed
 * default is read off {@link RunSpec#defaults()}, so that it is declared once too. Immutable.
 */
public enum SpecField {

    PROTOCOL("--protocol", null, null, null, "Protocol of the echo pair: tcp, udp; tcps is TLS over TCP with TCP's "
            + "framing; websocket one binary frame per message after an upgrade on /echo, wss the same over TLS; http "
            + "one POST /echo per message, pipelined up to window on one keep-alive connection (netty execution; one "
            + "at a time on reactive), https the same over TLS; h2c one POST /echo stream per message over HTTP/2 "
            + "without TLS (prior knowledge), up to window concurrent streams on one connection per client (netty "
            + "and reactive executions); h2 the same over TLS, agreed by ALPN; grpc one loopbench.Echo message per "
            + "message on grpc-java's Netty transport, a unary call each or one bidirectional stream per client "
            + "(grpcMethod), netty execution only; grpcs the same over TLS."),
    PAYLOAD_BYTES("--payload", Range.of(RunSpec.MIN_PAYLOAD, RunSpec.MAX_PAYLOAD), null, null,
            "Bytes per message, 16-byte header included."),
    CLIENTS("--clients", Range.of(1, RunSpec.MAX_CLIENTS), null, null, "Client connections (UDP: client sockets)."),
    WINDOW("--window", Range.of(1, RunSpec.MAX_WINDOW), null, null, "Messages in flight per client."),
    WINDOW_MODE("--window-mode", null, null, null, "sliding: a new message the moment one returns, one RTT per "
            + "message; batch: write the window, read it all back, one RTT per batch."),
    IO_MODEL("--io-model", null, null, null, "shared: one group of ioThreads loops for every channel; sharded: "
            + "ioThreads single-thread loops, client i and its server peer on shard i mod ioThreads."),
    IO_THREADS("--io-threads", Range.of(1, RunSpec.MAX_IO_THREADS), null, null,
            "Event-loop threads (virtual-threads execution: carrier threads)."),
    TRANSPORT("--transport", null, null, null, "Netty transport; auto is epoll where it loads, then io_uring, then "
            + "NIO. jdk (the JDK's own sockets) is what virtual-threads execution uses, and what auto means there."),
    WORK("--work", Range.of(0, RunSpec.MAX_WORK), null, null,
            "Xorshift iterations the server runs per echoed message (CPU work)."),
    WARMUP_SECONDS("--warmup", Range.of(0.0, RunSpec.MAX_SECONDS), null, null, "Warm-up phase in seconds before each "
            + "measured phase (0 skips it); with auto warmupMode, the least warm-up."),
    SECONDS("--seconds", Range.above(0, RunSpec.MAX_SECONDS), null, null, "Measured phase in seconds."),
    REPETITIONS("--repetitions", Range.of(1, RunSpec.MAX_REPETITIONS), null, null,
            "Independent repetitions; the summary gives median, min and max over them."),
    ADDRESS_FAMILY("--address-family", null, null, null, "Loopback address family: ipv4 is 127.0.0.1, ipv6 is ::1."),
    LOSS_TIMEOUT_MILLIS("--loss-timeout-ms", Range.of(1, RunSpec.MAX_LOSS_TIMEOUT_MILLIS), null, "udp",
            "Milliseconds before an unanswered datagram counts as lost and its slot is reused."),
    TARGET("--target", null, "none: a loopback echo pair in the measuring process", null, "host:port of an echo "
            + "server to run only the client side against (any server that echoes bytes verbatim); work must then "
            + "be 0."),
    LOAD("--load", null, null, null, "closed: each client sends a new message the moment one returns; open: messages "
            + "at a fixed rate whatever the replies, the window capping what is in flight (latency then measured "
            + "from each message's intended send time, and also uncorrected)."),
    RATE("--rate", Range.above(0, RunSpec.MAX_RATE), "none", "open load", "Messages per second, all clients "
            + "together."),
    EXECUTION("--execution", null, null, null, "How both ends are programmed. netty: handlers on the run's event "
            + "loops; reactive: the same loops, each end one Reactor Netty receive and one long-lived send per "
            + "connection; virtual-threads: blocking JDK sockets, one virtual thread per connection end, on ioThreads "
            + "carrier threads (shared ioModel and closed load only)."),
    WARMUP_MODE("--warmup-mode", null, null, null, "auto: warm up for at least warmupSeconds, then until throughput "
            + "over consecutive 200 ms rounds is stable and the JIT quiet, at most warmupMaxSeconds; fixed: exactly "
            + "warmupSeconds."),
    WARMUP_MAX_SECONDS("--warmup-max", Range.of(0.0, RunSpec.MAX_SECONDS),
            "the larger of 10 and warmupSeconds", "auto warm-up", "The warm-up's cap in seconds, at least "
            + "warmupSeconds."),
    DATAGRAMS_PER_READ("--datagrams-per-read", Range.of(1, RunSpec.MAX_DATAGRAMS_PER_READ), null, "udp",
            "Datagrams one socket read may take. 1 reads one datagram per system call, as arknet does; more reads "
            + "batches with recvmmsg (epoll transport, netty or reactive execution)."),
    CERTS_DIRECTORY("--certs", null, "a throw-away CA and a certificate for 127.0.0.1 and ::1, made once per JVM",
            "tcps, wss, https, h2, grpcs", "A directory with server.pem (certificate chain), server-key.pem (its PKCS#8 key) "
            + "and ca.pem (the CA the client trusts); the client verifies the chain and the server's IP."),
    TLS_PROVIDER("--tls-provider", null, null, "tcps, wss, https, h2, grpcs", "The TLS implementation of Netty's ends. auto: "
            + "Netty's own rule (SslContext's default provider): openssl where it loads here, else jdk; jdk: the "
            + "JDK's; openssl: Netty's BoringSSL-based native provider (refused where it does not load, and with "
            + "virtual-threads execution, whose sockets are the JDK's)."),
    TIMELINE_INTERVAL_MILLIS("--timeline-interval-ms",
            Range.of(RunSpec.MIN_TIMELINE_INTERVAL_MILLIS, RunSpec.MAX_TIMELINE_INTERVAL_MILLIS),
            RunSpec.DEFAULT_TIMELINE_INTERVAL_MILLIS + ", or the least length for longer phases", null,
            "The timeline's interval, ms: each phase is recorded in intervals this long (round trips, throughput, "
            + "p50, p99 and max RTT, GC and JIT events); at least the longest phase ÷ "
            + String.format(Locale.ROOT, "%,d", RunSpec.MAX_TIMELINE_INTERVALS) + "."),
    PROFILING("--profiling", null, null, null, "cpu: sample where each measured phase's CPU time goes (every thread, "
            + "Java, native and kernel frames with async-profiler; Java frames with the flight recorder where "
            + "async-profiler cannot start), stored as layers, threads and a call tree for flame graphs; its figures "
            + "then carry the sampling's cost (p99 most); off: no profile."),
    BLOCKING_MICROS("--blocking-us", Range.of(0, RunSpec.MAX_BLOCKING_MICROS), null, null, "Microseconds each echo "
            + "first spends in a blocking call that parks its thread (Thread.sleep), as a JDBC query or a remote call "
            + "does; after the CPU work, on the thread offload says."),
    OFFLOAD("--offload", null, null, null, "Where the server runs each message's work and blocking call. loop: on "
            + "the connection's event loop (arknet's); executor: a pool of offloadThreads threads — netty: a "
            + "DefaultEventExecutorGroup in the pipeline, each connection pinned to one of its threads; reactive: "
            + "publishOn a boundedElastic scheduler of at most offloadThreads threads; virtual-threads: one virtual "
            + "thread per message (netty) or publishOn a virtual-thread-per-task scheduler (reactive); grpc-default: "
            + "grpc-java's own default executor (grpc only; with grpc, loop is directExecutor() and executor and "
            + "virtual-threads are the executor grpc-java is given). Every echo stays in order per connection. Not "
            + "with the virtual-threads execution or a target."),
    OFFLOAD_THREADS("--offload-threads", Range.of(1, RunSpec.MAX_OFFLOAD_THREADS), null, "executor offload",
            "Threads of the executor offload's pool."),
    GRPC_METHOD("--grpc-method", null, null, "grpc", "The loopbench.Echo method a grpc client calls. unary: one call "
            + "per message, up to window calls at once on the client's connection, completing in any order; stream: one "
            + "bidirectional stream per client carrying its window of messages, echoed in order."),
    ;

    private final String flag;
    private final Range range;
    private final String defaultText;
    private final String appliesTo;
    private final String help;
    private final RecordComponent component;

    SpecField(String flag, Range range, String defaultText, String appliesTo, String help) {
        this.flag = flag;
        this.range = range;
        this.defaultText = defaultText;
        this.appliesTo = appliesTo;
        this.help = help;
        this.component = RunSpec.class.getRecordComponents()[ordinal()];
    }

    /** The field's name: the record component's and the JSON property's. */
    public String field() {
        return component.getName();
    }

    /** Its type: an Integer, a Double, a String or a {@link Labeled} enum. */
    public Class<?> type() {
        return component.getType();
    }

    /** The command line's flag for it. */
    public String flag() {
        return flag;
    }

    /** Its range of numbers, null where it is not a number. */
    public Range range() {
        return range;
    }

    /** Where it applies (e.g. {@code udp}, {@code open load}); null for every run. */
    public String appliesTo() {
        return appliesTo;
    }

    public String help() {
        return help;
    }

    /** The value an omitted field takes, as the spec holds it; null where the default depends on other fields. */
    public Object defaultValue() {
        if (defaultText != null) {
            return null;
        }
        try {
            return component.getAccessor().invoke(RunSpec.defaults());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The default in words: the value's text (an enum's label, a whole number without decimals) or what it depends on. */
    public String defaultText() {
        return defaultText != null ? defaultText : text(defaultValue());
    }

    /** The allowed labels of an enum field, in declaration order; empty for the others. */
    public List<String> labels() {
        Object[] constants = type().getEnumConstants();
        return constants == null ? List.of() : Arrays.stream(constants).map(c -> ((Labeled) c).label()).toList();
    }

    /** One line of help: where it applies, the help, the range and the default. */
    public String summary() {
        return (appliesTo != null ? appliesTo + " only. " : "") + help
                + (range != null ? " Allowed: " + range.text() + "." : "")
                + (labels().isEmpty() ? "" : " One of: " + String.join(", ", labels()) + ".")
                + " Default: " + defaultText() + ".";
    }

    /** The field of this name, if the spec has one. */
    public static Optional<SpecField> find(String field) {
        return Arrays.stream(values()).filter(f -> f.field().equals(field)).findFirst();
    }

    static String text(Object value) {
        if (value instanceof Labeled l) {
            return l.label();
        }
        if (value instanceof Number n) {
            return Range.number(n.doubleValue());
        }
        return String.valueOf(value);
    }

    /**
     * A numeric range: from {@code min} (excluded when {@code minExcluded}) to {@code max} included, of whole numbers
     * when {@code whole}.
     */
    public record Range(double min, boolean minExcluded, double max, boolean whole) {

        static Range of(int min, int max) {
            return new Range(min, false, max, true);
        }

        static Range of(double min, double max) {
            return new Range(min, false, max, false);
        }

        static Range above(double min, double max) {
            return new Range(min, true, max, false);
        }

        public boolean contains(double value) {
            return (minExcluded ? value > min : value >= min) && value <= max;
        }

        /** In words, as violations and help give it: {@code 16 … 65,507}, {@code more than 0 and at most 3,600}. */
        public String text() {
            return minExcluded ? "more than " + number(min) + " and at most " + number(max)
                    : number(min) + " … " + number(max);
        }

        /** A whole number with thousands separators and no decimals; another as it is. */
        static String number(double v) {
            return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%,d", (long) v)
                    : BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
        }
    }
}
