package io.loopbench.cli;

import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.AddressFamily;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.Profiling;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.SpecField;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.spec.WindowMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A load as flags, one per {@link SpecField} but those of {@link LayoutOptions}, with its help from
 * {@link SpecFieldHelp}: {@code measure} takes these and the layout's, {@code recommend} these alone (it races the
 * layouts). Flag names follow arknet's ({@code --payload},
 * {@code --warmup}, {@code --io-model}, …); an omitted flag takes the spec's default.
 */
@Command(resourceBundle = "io.loopbench.cli.SpecFieldHelp")
final class LoadOptions {

    @Option(names = "--protocol", paramLabel = "tcp|udp|tcps|websocket|wss|http|https|h2c|h2|grpc|grpcs", descriptionKey = "protocol")
    Protocol protocol;
    @Option(names = "--payload", paramLabel = "BYTES", descriptionKey = "payloadBytes")
    Integer payload;
    @Option(names = "--clients", descriptionKey = "clients")
    Integer clients;
    @Option(names = "--window", descriptionKey = "window")
    Integer window;
    @Option(names = "--window-mode", paramLabel = "sliding|batch", descriptionKey = "windowMode")
    WindowMode windowMode;
    @Option(names = "--work", paramLabel = "ITERATIONS", descriptionKey = "work")
    Integer work;
    @Option(names = "--warmup", paramLabel = "SECONDS", descriptionKey = "warmupSeconds")
    Double warmup;
    @Option(names = "--warmup-mode", paramLabel = "auto|fixed", descriptionKey = "warmupMode")
    WarmupMode warmupMode;
    @Option(names = "--warmup-max", paramLabel = "SECONDS", descriptionKey = "warmupMaxSeconds")
    Double warmupMax;
    @Option(names = "--seconds", descriptionKey = "seconds")
    Double seconds;
    @Option(names = "--address-family", paramLabel = "ipv4|ipv6", descriptionKey = "addressFamily")
    AddressFamily addressFamily;
    @Option(names = "--loss-timeout-ms", paramLabel = "MILLIS", descriptionKey = "lossTimeoutMillis")
    Integer lossTimeoutMillis;
    @Option(names = "--datagrams-per-read", paramLabel = "N", descriptionKey = "datagramsPerRead")
    Integer datagramsPerRead;
    @Option(names = "--certs", paramLabel = "DIR", descriptionKey = "certsDirectory")
    String certsDirectory;
    @Option(names = "--tls-provider", paramLabel = "auto|jdk|openssl", descriptionKey = "tlsProvider")
    TlsProvider tlsProvider;
    @Option(names = "--timeline-interval-ms", paramLabel = "MILLIS", descriptionKey = "timelineIntervalMillis")
    Integer timelineIntervalMillis;
    @Option(names = "--profiling", paramLabel = "cpu|off", descriptionKey = "profiling")
    Profiling profiling;
    @Option(names = "--blocking-us", paramLabel = "MICROS", descriptionKey = "blockingMicros")
    Integer blockingMicros;
    @Option(names = "--grpc-method", paramLabel = "unary|stream", descriptionKey = "grpcMethod")
    GrpcMethod grpcMethod;
    @Option(names = "--load", paramLabel = "closed|open", descriptionKey = "load")
    LoadModel load;
    @Option(names = "--rate", paramLabel = "MESSAGES_PER_S", descriptionKey = "rate")
    Double rate;

    /**
     * The spec a parsed command line describes, its layout from {@code layout} (null: the defaults); omitted flags
     * take their defaults.
     */
    RunSpec spec(LayoutOptions layout) {
        LayoutOptions l = layout != null ? layout : new LayoutOptions();
        return new RunSpec(protocol, payload, clients, window, windowMode, l.ioModel, l.ioThreads, l.transport, work,
                warmup, seconds, l.repetitions, addressFamily, lossTimeoutMillis, l.target, load, rate,
                l.execution, warmupMode, warmupMax, datagramsPerRead, certsDirectory, tlsProvider,
                timelineIntervalMillis, profiling, blockingMicros, l.offload, l.offloadThreads, grpcMethod);
    }

    /** The flags that set a violation's field, or each of its fields ({@code clients×window×payloadBytes}). */
    static String flags(String field) {
        return Arrays.stream(field.split("×")).map(f -> SpecField.find(f).map(SpecField::flag).orElse("--" + f))
                .collect(Collectors.joining(" × "));
    }
}
