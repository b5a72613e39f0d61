package io.loopbench.runs;

import io.loopbench.cluster.Placement;
import io.loopbench.engine.spec.AddressFamily;
import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.Profiling;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.spec.WindowMode;
import io.loopbench.engine.spec.Validatable;
import io.loopbench.engine.spec.Violation;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;

/**
 * The body of {@code POST /api/runs}: a run specification plus where to run it. Every field is optional and takes
 * its default when omitted; ranges are checked all at once by the service (a 400 lists every violation). The spec
 * fields' schema (description, range, default, values) is made from {@link io.loopbench.engine.spec.SpecField} by
 * {@link RunRequestSchema}; the components here are the spec's, in its order, then where to run it.
 */
@Schema(description = "A run specification. Omitted fields take their defaults.")
public record RunRequest(
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
        @Schema(example = "127.0.0.1:7007")
        String target,
        LoadModel load,
        @Schema(example = "20000")
        Double rate,
        Execution execution,
        WarmupMode warmupMode,
        @Schema(example = "10")
        Double warmupMaxSeconds,
        Integer datagramsPerRead,
        @Schema(example = "/etc/loopbench/certs")
        String certsDirectory,
        TlsProvider tlsProvider,
        Integer timelineIntervalMillis,
        Profiling profiling,
        Integer blockingMicros,
        Offload offload,
        Integer offloadThreads,
        GrpcMethod grpcMethod,
        @Schema(description = "forked: each repetition in a fresh JVM (the service stays out of the figures); "
                + "in-process: in the service's JVM, for quick runs.", defaultValue = "forked",
                allowableValues = {"forked", "in-process"})
        Isolation isolation,
        @Schema(description = "A run across hosts (needs loopbench.cluster.enabled): the agent that runs the echo "
                + "server and the agents that run clients, each with how many (clients is then their sum, isolation "
                + "does not apply, and target must be omitted). Every agent must be in the cluster, idle, and at a "
                + "loopback address or one inside loopbench.network.allowed-cidrs. Each repetition warms up every "
                + "agent's clients, starts their measured phases at one instant and merges their counters and "
                + "histograms exactly.",
                example = "{\"server\":\"agent-a\",\"clients\":[{\"agent\":\"agent-b\",\"clients\":8},"
                        + "{\"agent\":\"agent-c\",\"clients\":8}]}")
        Placement placement) implements Validatable {

    /** The spec's own rules (the service's limits are checked when it is submitted). */
    @Override
    public List<Violation> violations() {
        return spec().violations();
    }

    public RunSpec spec() {
        return new RunSpec(protocol, payloadBytes, clients, window, windowMode, ioModel, ioThreads, transport, work,
                warmupSeconds, seconds, repetitions, addressFamily, lossTimeoutMillis, target, load, rate,
                execution, warmupMode, warmupMaxSeconds, datagramsPerRead, certsDirectory, tlsProvider,
                timelineIntervalMillis, profiling, blockingMicros, offload, offloadThreads, grpcMethod);
    }

    public Isolation isolationOrDefault() {
        return isolation != null ? isolation : Isolation.FORKED;
    }
}
