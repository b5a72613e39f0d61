package io.loopbench.cli;

import io.loopbench.engine.spec.AddressFamily;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.spec.WindowMode;
import io.loopbench.worker.ProgressLines;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.loopbench.engine.timeline.TimelineInterval;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramLogWriter;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code measure}: runs one measurement and prints its result as JSON on stdout, one progress line per phase on
 * stderr. Exit codes: 0 ok, 1 the run failed validation, 2 invalid input. Flag names follow arknet's
 * ({@code --payload}, {@code --warmup}, {@code --io-model}, …); an omitted flag takes the spec's default.
 */
@Command(name = "measure", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run one echo measurement and print its result as JSON.")
public final class MeasureCommand implements Callable<Integer> {

    /** The flag that sets each spec field whose flag name differs from it. */
    private static final Map<String, String> FLAGS = Map.ofEntries(
            Map.entry("payloadBytes", "--payload"),
            Map.entry("warmupSeconds", "--warmup"),
            Map.entry("lossTimeoutMillis", "--loss-timeout-ms"),
            Map.entry("ioThreads", "--io-threads"),
            Map.entry("windowMode", "--window-mode"),
            Map.entry("ioModel", "--io-model"),
            Map.entry("addressFamily", "--address-family"),
            Map.entry("clients×window×payloadBytes", "--clients × --window × --payload"),
            Map.entry("window×payloadBytes", "--window × --payload"),
            Map.entry("warmupMode", "--warmup-mode"),
            Map.entry("warmupMaxSeconds", "--warmup-max"),
            Map.entry("datagramsPerRead", "--datagrams-per-read"),
            Map.entry("certsDirectory", "--certs"),
            Map.entry("tlsProvider", "--tls-provider"),
            Map.entry("timelineIntervalMillis", "--timeline-interval-ms"));

    /** The result's writer; in a holder so that Jackson loads when the result is written, not before the first echo. */
    static final class Json {
        static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

        private Json() {
        }
    }

    @Option(names = "--protocol", paramLabel = "tcp|udp|tcps|websocket|wss|http|https",
            description = "Protocol; tcps is TLS over TCP, with TCP's framing; websocket is one binary frame per "
                    + "message after an upgrade on /echo (netty and reactive executions), wss the same over TLS; http "
                    + "is one POST /echo per message on one keep-alive connection per client: up to window "
                    + "pipelined on the netty execution (RTT includes pipeline queueing), one at a time (window 1) on "
                    + "reactive, Reactor Netty's HttpServer and HttpClient; https the same over TLS (default tcp).")
    Protocol protocol;
    @Option(names = "--payload", paramLabel = "BYTES", description = "Bytes per message, 16 … 65507 (default 1024).")
    Integer payload;
    @Option(names = "--clients", description = "Client connections or sockets, 1 … 1024 (default 16).")
    Integer clients;
    @Option(names = "--window", description = "Messages in flight per client, 1 … 1024 (default 16).")
    Integer window;
    @Option(names = "--window-mode", paramLabel = "sliding|batch",
            description = "sliding: RTT per message; batch: RTT per window (default sliding).")
    WindowMode windowMode;
    @Option(names = "--io-model", paramLabel = "shared|sharded",
            description = "Event-loop layout (default shared).")
    IoModel ioModel;
    @Option(names = "--io-threads",
            description = "Event-loop threads (virtual-threads: carrier threads), 1 … 64 (default 1).")
    Integer ioThreads;
    @Option(names = "--transport", paramLabel = "auto|nio|epoll|io_uring|jdk",
            description = "Netty transport, or jdk with --execution virtual-threads (default auto).")
    Transport transport;
    @Option(names = "--work", paramLabel = "ITERATIONS",
            description = "Server xorshift iterations per echo, 0 … 10000000 (default 0).")
    Integer work;
    @Option(names = "--warmup", paramLabel = "SECONDS",
            description = "Warm-up seconds, 0 … 3600; with --warmup-mode auto the least (default 1).")
    Double warmup;
    @Option(names = "--warmup-mode", paramLabel = "auto|fixed",
            description = "auto: warm up until throughput is stable and the JIT quiet, at least --warmup and at most "
                    + "--warmup-max seconds; fixed: exactly --warmup seconds (default auto).")
    WarmupMode warmupMode;
    @Option(names = "--warmup-max", paramLabel = "SECONDS",
            description = "Auto warm-up's cap, --warmup … 3600 (default the larger of 10 and --warmup).")
    Double warmupMax;
    @Option(names = "--seconds", description = "Measured seconds, more than 0, at most 3600 (default 3).")
    Double seconds;
    @Option(names = "--repetitions", description = "Repetitions, 1 … 100 (default 3).")
    Integer repetitions;
    @Option(names = "--address-family", paramLabel = "ipv4|ipv6",
            description = "Loopback address family (default ipv4).")
    AddressFamily addressFamily;
    @Option(names = "--loss-timeout-ms", paramLabel = "MILLIS",
            description = "UDP: wait before a datagram counts as lost, 1 … 60000 (default 1000).")
    Integer lossTimeoutMillis;
    @Option(names = "--datagrams-per-read", paramLabel = "N",
            description = "UDP: datagrams one read may take, 1 … 64; more than 1 reads batches with recvmmsg "
                    + "(epoll transport; default 1, one per call as arknet).")
    Integer datagramsPerRead;
    @Option(names = "--certs", paramLabel = "DIR",
            description = "tcps, wss, https: a directory with server.pem, server-key.pem (PKCS#8) and ca.pem (default: "
                    + "a throw-away CA and a certificate for 127.0.0.1 and ::1, made at start).")
    String certsDirectory;
    @Option(names = "--tls-provider", paramLabel = "auto|jdk|openssl",
            description = "tcps, wss, https: Netty's rule (auto, the default: OpenSSL where it loads, else the JDK's), "
                    + "the JDK's TLS or Netty's OpenSSL (BoringSSL) provider on Netty's ends.")
    TlsProvider tlsProvider;
    @Option(names = "--timeline-interval-ms", paramLabel = "MILLIS",
            description = "The timeline's interval, 10 … 10000 ms, at least the longest phase ÷ 10,000 (default 100, "
                    + "or that least length).")
    Integer timelineIntervalMillis;
    /** The flag that adds each repetition's timeline to the JSON (the service's workers always give it). */
    @Option(names = "--timeline", description = "Add each repetition's timeline (warm-up and measured phase in "
            + "intervals, with GC and JIT events) to the JSON.")
    boolean timeline;
    @Option(names = "--histogram-log", paramLabel = "FILE", description = "Write every interval's RTT histogram to "
            + "FILE in HdrHistogram's interval log format (nanoseconds; warm-up intervals tagged warmup), readable by "
            + "HdrHistogram's HistogramLogReader and HistogramLogProcessor.")
    Path histogramLog;
    @Option(names = "--load", paramLabel = "closed|open",
            description = "closed: a new message when one returns; open: messages at --rate (default closed).")
    LoadModel load;
    @Option(names = "--rate", paramLabel = "MESSAGES_PER_S",
            description = "Open load: messages per second, all clients together.")
    Double rate;
    @Option(names = "--execution", paramLabel = "netty|reactive|virtual-threads",
            description = "netty handlers, Reactor Netty pipelines per message, or blocking sockets on virtual "
                    + "threads over --io-threads carriers (default netty).")
    Execution execution;
    @Option(names = "--target", paramLabel = "HOST:PORT",
            description = "Run only the client side against this echo server (default: a loopback pair here).")
    String target;

    /** The spec a parsed command line describes; omitted flags take their defaults. */
    RunSpec spec() {
        return new RunSpec(protocol, payload, clients, window, windowMode, ioModel, ioThreads, transport, work,
                warmup, seconds, repetitions, addressFamily, lossTimeoutMillis, target, load, rate,
                execution, warmupMode, warmupMax, datagramsPerRead, certsDirectory, tlsProvider, timelineIntervalMillis);
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec commandSpec;

    @Override
    public Integer call() {
        PrintWriter err = commandSpec.commandLine().getErr();
        PrintWriter out = commandSpec.commandLine().getOut();
        RunSpec spec = spec();
        Measurement measurement;
        try {
            measurement = Measurement.of(spec);
        } catch (InvalidSpecException e) {
            for (Violation v : e.violations()) {
                err.println("loopbench: " + FLAGS.getOrDefault(v.field(), "--" + v.field()) + ": " + v.message());
            }
            err.flush();
            return 2;
        }
        MeasurementResult result;
        try (IntervalLog log = histogramLog == null ? null : new IntervalLog(histogramLog)) {
            result = measurement.progress(new StderrProgress(err, spec.repetitions(),
                    spec.warmupMode() == WarmupMode.AUTO, log)).run();
        } catch (IOException e) {
            err.println("loopbench: --histogram-log " + histogramLog + ": " + e.getMessage());
            err.flush();
            return 2;
        }
        if (!timeline) {
            result = new MeasurementResult(result.spec(), result.transport(), result.environment(),
                    result.repetitions().stream().map(RepetitionResult::withoutTimeline).toList(), result.summary(),
                    result.ok(), result.error(), result.cancelled());
        }
        out.println(Json.MAPPER.writeValueAsString(result));
        out.flush();
        if (!result.ok()) {
            err.println("loopbench: " + result.error());
            err.flush();
        }
        return result.ok() ? 0 : 1;
    }

    /**
     * HdrHistogram's interval log of every repetition's intervals (RTTs in nanoseconds, shown in ms; the warm-up's
     * tagged {@code warmup}, so that HdrHistogram's tools leave them out unless asked), written as they close. Used by
     * the measuring thread only.
     */
    private static final class IntervalLog implements AutoCloseable {
        private final PrintStream out;
        private final HistogramLogWriter writer;

        IntervalLog(Path file) throws IOException {
            out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8);
            writer = new HistogramLogWriter(out);
            long now = System.currentTimeMillis();
            writer.outputComment("loopbench measure: RTT in nanoseconds, one histogram per timeline interval");
            writer.outputLogFormatVersion();
            writer.outputStartTime(now);
            writer.setBaseTime(now);
            writer.outputLegend();
        }

        void interval(TimelineInterval interval, AbstractHistogram rtt) {
            if (interval.phase().equals(TimelineInterval.WARMUP)) {
                rtt.setTag("warmup");
            }
            writer.outputIntervalHistogram(rtt);
        }

        @Override
        public void close() throws IOException {
            out.close();
            if (out.checkError()) {
                throw new IOException("could not write the histogram log");
            }
        }
    }

    /**
     * One line per phase and per finished repetition, the latter with its warm-up, failure and warnings; with a
     * {@code log}, each interval's histogram there.
     */
    private record StderrProgress(PrintWriter err, int repetitions, boolean auto, IntervalLog log)
            implements io.loopbench.engine.ProgressListener {
        @Override
        public void intervalRecorded(int repetition, TimelineInterval interval, AbstractHistogram rtt) {
            if (log != null) {
                log.interval(interval, rtt);
            }
        }

        @Override
        public void phaseStarted(int repetition, String phase, double seconds) {
            err.println(ProgressLines.phase(repetition, repetitions, phase, seconds, auto));
            err.flush();
        }

        @Override
        public void repetitionFinished(RepetitionResult r) {
            err.println(ProgressLines.finished(r, repetitions));
            err.flush();
        }
    }
}
