package io.loopbench.runs;

import io.loopbench.cluster.Placement;
import io.loopbench.engine.spec.AddressFamily;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.LoadModel;
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
 * its default when omitted; ranges are checked all at once by the service (a 400 lists every violation).
 */
@Schema(description = "A run specification. Omitted fields take their defaults.")
public record RunRequest(
        @Schema(description = "Protocol of the echo pair: tcp, udp; tcps is TLS over TCP with TCP's framing; websocket "
                + "one binary frame per message after an upgrade on /echo, wss the same over TLS; http one POST /echo "
                + "per message, pipelined up to window on one keep-alive connection, https the same over TLS.",
                defaultValue = "tcp")
        Protocol protocol,
        @Schema(description = "Bytes per message, 16-byte header included.", minimum = "16", maximum = "65507",
                defaultValue = "1024")
        Integer payloadBytes,
        @Schema(description = "Client connections (UDP: client sockets).", minimum = "1", maximum = "1024",
                defaultValue = "16")
        Integer clients,
        @Schema(description = "Messages in flight per client.", minimum = "1", maximum = "1024", defaultValue = "16")
        Integer window,
        @Schema(description = "sliding: a new message the moment one returns, one RTT per message; batch: write the "
                + "window, read it all back, one RTT per batch.", defaultValue = "sliding",
                allowableValues = {"sliding", "batch"})
        WindowMode windowMode,
        @Schema(description = "shared: one group of ioThreads loops for every channel; sharded: ioThreads "
                + "single-thread loops, client i and its server peer on shard i mod ioThreads.",
                defaultValue = "shared", allowableValues = {"shared", "sharded"})
        IoModel ioModel,
        @Schema(description = "Event-loop threads (virtual-threads execution: carrier threads).", minimum = "1", maximum = "64", defaultValue = "1")
        Integer ioThreads,
        @Schema(description = "Netty transport; auto is epoll here, then io_uring, then NIO. jdk (the JDK's own "
                + "sockets) is what virtual-threads execution uses, and what auto means there.", defaultValue = "auto",
                allowableValues = {"auto", "nio", "epoll", "io_uring", "jdk"})
        Transport transport,
        @Schema(description = "Xorshift iterations the server runs per echoed message (CPU work).", minimum = "0",
                maximum = "10000000", defaultValue = "0")
        Integer work,
        @Schema(description = "Warm-up phase in seconds before each measured phase (0 skips it); with auto "
                + "warmupMode, the least warm-up.", minimum = "0", maximum = "3600", defaultValue = "1")
        Double warmupSeconds,
        @Schema(description = "Measured phase in seconds (more than 0). The service's limit on the warm-up at its "
                + "longest (warmupSeconds, or warmupMaxSeconds with auto warm-up) + "
                + "seconds is loopbench.limits.max-seconds-per-repetition (default 600).", minimum = "0",
                exclusiveMinimum = true, maximum = "3600", defaultValue = "3")
        Double seconds,
        @Schema(description = "Independent repetitions; the summary gives median, min and max over them.",
                minimum = "1", maximum = "100", defaultValue = "3")
        Integer repetitions,
        @Schema(description = "Loopback address family: ipv4 is 127.0.0.1, ipv6 is ::1.", defaultValue = "ipv4",
                allowableValues = {"ipv4", "ipv6"})
        AddressFamily addressFamily,
        @Schema(description = "UDP: milliseconds before an unanswered datagram counts as lost and its slot is "
                + "reused.", minimum = "1", maximum = "60000", defaultValue = "1000")
        Integer lossTimeoutMillis,
        @Schema(description = "host:port of an echo server to run only the client side against (any server that "
                + "echoes bytes verbatim: another loopbench's standing echo server, or a plain TCP/UDP echo). Omitted: "
                + "a loopback echo pair in the measuring process. Only loopback targets and targets inside "
                + "loopbench.network.allowed-cidrs are accepted, since this API generates load.",
                example = "127.0.0.1:7007")
        String target,
        @Schema(description = "closed: each client sends a new message the moment one returns (closed-loop RTT); "
                + "open: messages are sent at a fixed rate whatever the replies, the window capping what is in flight "
                + "(latency then measured from each message's intended send time, and also uncorrected).",
                defaultValue = "closed", allowableValues = {"closed", "open"})
        LoadModel load,
        @Schema(description = "Open load only: messages per second, all clients together.", minimum = "0",
                exclusiveMinimum = true, maximum = "10000000", example = "20000")
        Double rate,
        @Schema(description = "How both ends are programmed. netty: handlers on the run's event loops; reactive: "
                + "the same loops, each end one Reactor Netty receive and one long-lived send per connection (operators "
                + "per message, flushes coalesced by Reactor Netty); "
                + "virtual-threads: blocking JDK sockets, one virtual thread per connection end, on ioThreads "
                + "carrier threads (shared ioModel and closed load only).", defaultValue = "netty",
                allowableValues = {"netty", "reactive", "virtual-threads"})
        Execution execution,
        @Schema(description = "auto: warm up for at least warmupSeconds, then until throughput over consecutive "
                + "200 ms windows is stable and no JIT compilation happened for 1 s, at most warmupMaxSeconds; "
                + "fixed: exactly warmupSeconds.", defaultValue = "auto", allowableValues = {"auto", "fixed"})
        WarmupMode warmupMode,
        @Schema(description = "Auto warm-up's cap in seconds (warmupSeconds … 3600); default the larger of 10 and "
                + "warmupSeconds.", minimum = "0", maximum = "3600", example = "10")
        Double warmupMaxSeconds,
        @Schema(description = "UDP only: datagrams one socket read may take. 1 reads one datagram per system call, "
                + "as arknet does; more reads batches with recvmmsg (epoll transport, netty or reactive execution), "
                + "and the echo server's flush of a batch goes out with sendmmsg.", minimum = "1", maximum = "64",
                defaultValue = "1")
        Integer datagramsPerRead,
        @Schema(description = "tcps, wss and https only: a directory on the service's host with server.pem (certificate chain), "
                + "server-key.pem (its PKCS#8 key) and ca.pem (the CA the client trusts); the client verifies the "
                + "chain and the server's IP. Omitted: a throw-away CA and a certificate for 127.0.0.1 and ::1, made "
                + "once per JVM.", example = "/etc/loopbench/certs")
        String certsDirectory,
        @Schema(description = "tcps, wss and https only: the TLS implementation of Netty's ends. auto: Netty's own "
                + "rule (SslContext's default provider), as a Reactor Netty service with this class path gets: "
                + "openssl where it loads here, else jdk; each repetition's tls names the provider used and the "
                + "environment's tlsProviders why. jdk: the JDK's; openssl: Netty's BoringSSL-based native provider "
                + "(refused where it does not load, and with virtual-threads execution, whose sockets are the "
                + "JDK's).", defaultValue = "auto", allowableValues = {"auto", "jdk", "openssl"})
        TlsProvider tlsProvider,
        @Schema(description = "The timeline's interval, ms: each repetition's warm-up and measured phase are recorded "
                + "in intervals this long (round trips, throughput, p50, p99 and max RTT, GC and JIT events). At "
                + "least the longest phase ÷ 10,000 (a phase has at most 10,000 intervals); omitted: 100, or that "
                + "least length for longer phases.", minimum = "10", maximum = "10000", defaultValue = "100")
        Integer timelineIntervalMillis,
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
                timelineIntervalMillis);
    }

    public Isolation isolationOrDefault() {
        return isolation != null ? isolation : Isolation.FORKED;
    }
}
