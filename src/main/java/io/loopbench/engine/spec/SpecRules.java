package io.loopbench.engine.spec;

import io.loopbench.engine.protocol.tls.Tls;
import io.loopbench.engine.protocol.tls.TlsMaterial;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules a {@link RunSpec} keeps: each field's range, and those between fields — a target, open load, the
 * virtual-threads execution, TLS, the bytes in flight. Stateless.
 */
final class SpecRules {

    private SpecRules() {
    }

    /** Every rule the spec breaks, in field order; empty when it is valid. */
    static List<Violation> violations(RunSpec s) {
        List<Violation> v = new ArrayList<>();
        range(v, SpecField.PAYLOAD_BYTES, s.payloadBytes());
        range(v, SpecField.CLIENTS, s.clients());
        range(v, SpecField.WINDOW, s.window());
        range(v, SpecField.IO_THREADS, s.ioThreads());
        range(v, SpecField.WORK, s.work());
        range(v, SpecField.BLOCKING_MICROS, s.blockingMicros());
        range(v, SpecField.OFFLOAD_THREADS, s.offloadThreads());
        range(v, SpecField.WARMUP_SECONDS, s.warmupSeconds());
        if (s.warmupMode() == WarmupMode.AUTO) {
            range(v, SpecField.WARMUP_MAX_SECONDS, s.warmupMaxSeconds());
            if (SpecField.WARMUP_MAX_SECONDS.range().contains(s.warmupMaxSeconds())
                    && s.warmupMaxSeconds() < s.warmupSeconds()) {
                v.add(new Violation("warmupMaxSeconds", String.valueOf(s.warmupMaxSeconds()),
                        "warmupSeconds (" + s.warmupSeconds() + ") … " + SpecField.Range.number(RunSpec.MAX_SECONDS)
                                + " with auto warm-up"));
            }
        }
        range(v, SpecField.SECONDS, s.seconds());
        range(v, SpecField.REPETITIONS, s.repetitions());
        range(v, SpecField.LOSS_TIMEOUT_MILLIS, s.lossTimeoutMillis());
        int leastInterval = Math.max(RunSpec.MIN_TIMELINE_INTERVAL_MILLIS,
                RunSpec.leastTimelineIntervalMillis(s.warmupLimitSeconds(), s.seconds()));
        if (!(s.timelineIntervalMillis() >= leastInterval
                && s.timelineIntervalMillis() <= RunSpec.MAX_TIMELINE_INTERVAL_MILLIS)) {
            v.add(new Violation("timelineIntervalMillis", String.valueOf(s.timelineIntervalMillis()),
                    SpecField.Range.number(leastInterval) + " … "
                            + SpecField.Range.number(RunSpec.MAX_TIMELINE_INTERVAL_MILLIS) + (leastInterval
                            > RunSpec.MIN_TIMELINE_INTERVAL_MILLIS ? " (a phase has at most "
                            + SpecField.Range.number(RunSpec.MAX_TIMELINE_INTERVALS) + " intervals)" : "")));
        }
        datagramRules(s, v);
        tlsRules(s, v);
        executionRules(s, v);
        if (s.target() != null) {
            if (Target.parse(s.target()).isEmpty()) {
                v.add(new Violation("target", s.target(),
                        "host:port with a port of 1 … 65535, e.g. 127.0.0.1:7 or [::1]:7"));
            }
            if (s.work() != 0) {
                v.add(new Violation("work", String.valueOf(s.work()),
                        "0 with a target: the work runs on the echo server, so set it there"));
            }
            if (s.blockingMicros() != 0) {
                v.add(new Violation("blockingMicros", String.valueOf(s.blockingMicros()),
                        "0 with a target: the blocking call runs on the echo server, so set it there"));
            }
            if (s.offload() != Offload.LOOP) {
                v.add(new Violation("offload", s.offload().label(),
                        "loop with a target: the work runs on the echo server, so set it there"));
            }
        }
        if (s.load() == LoadModel.OPEN) {
            if (s.rate() == null || !SpecField.RATE.range().contains(s.rate())) {
                v.add(new Violation("rate", String.valueOf(s.rate()), SpecField.RATE.range().text()
                        + " messages/s with open load"));
            }
            if (s.windowMode() == WindowMode.BATCH) {
                v.add(new Violation("windowMode", s.windowMode().label(), "sliding with open load"));
            }
        } else if (s.rate() != null) {
            v.add(new Violation("rate", String.valueOf(s.rate()), "none with closed load (set load to open)"));
        }
        if (s.execution() == Execution.VIRTUAL_THREADS) {
            virtualThreadRules(s, v);
            if (s.offload() != Offload.LOOP) {
                v.add(new Violation("offload", s.offload().label(), "loop with virtual-threads execution: each "
                        + "connection's work already runs on its own virtual thread, which blocks alone"));
            }
        } else if (s.transport() == Transport.JDK) {
            v.add(new Violation("transport", s.transport().label(), "auto, nio, epoll or io_uring: jdk (the JDK's own "
                    + "sockets) goes only with virtual-threads execution"));
        }
        long outstanding = (long) s.clients() * s.window() * s.payloadBytes();
        if (outstanding > RunSpec.MAX_OUTSTANDING_BYTES) {
            v.add(new Violation("clients×window×payloadBytes", String.valueOf(outstanding),
                    "at most " + RunSpec.MAX_OUTSTANDING_BYTES + " (256 MiB)"));
        }
        return v;
    }

    /**
     * A virtual thread owns each connection end and blocks in its socket calls: one shared set of carriers (no
     * shards), no timer to pace open load, and — on TCP, where an end that blocks writing reads nothing meanwhile —
     * no more bytes in flight per connection than the loopback socket buffers hold, lest both ends block writing.
     */
    private static void virtualThreadRules(RunSpec s, List<Violation> v) {
        if (s.ioModel() == IoModel.SHARDED) {
            v.add(new Violation("ioModel", s.ioModel().label(), "shared with virtual-threads execution: virtual "
                    + "threads run on one pool of ioThreads carriers, so there are no per-thread shards"));
        }
        if (s.load() == LoadModel.OPEN) {
            v.add(new Violation("load", s.load().label(), "closed with virtual-threads execution: a client's one "
                    + "thread blocks reading its echoes and cannot also send on a schedule"));
        }
        if (s.transport() != Transport.AUTO && s.transport() != Transport.JDK) {
            v.add(new Violation("transport", s.transport().label(), "auto or jdk with virtual-threads execution: it "
                    + "uses the JDK's own sockets, not a Netty transport"));
        }
        long perConnection = (long) s.window() * s.payloadBytes();
        if (s.protocol() != Protocol.UDP && perConnection > RunSpec.MAX_BLOCKING_WINDOW_BYTES) {
            v.add(new Violation("window×payloadBytes", String.valueOf(perConnection), "at most "
                    + RunSpec.MAX_BLOCKING_WINDOW_BYTES + " (256 KiB) on " + s.protocol().label()
                    + " with virtual-threads execution: each end is one blocking thread, so more in flight could fill "
                    + "every socket buffer and block both ends"));
        }
    }

    private static void tlsRules(RunSpec s, List<Violation> v) {
        v.addAll(tlsViolations(s.protocol(), s.certsDirectory(), s.tlsProvider(), s.execution()));
    }

    /**
     * TLS settings go with tcps, wss, https, h2 and grpcs only; a certificates directory must load (read here, so that a run with
     * a missing or mismatched file is refused before any load starts); the OpenSSL provider must load, on Netty's
     * ends.
     */
    static List<Violation> tlsViolations(Protocol protocol, String certsDirectory, TlsProvider provider,
                                         Execution execution) {
        List<Violation> v = new ArrayList<>();
        if (certsDirectory != null) {
            if (!protocol.secure()) {
                v.add(new Violation("certsDirectory", certsDirectory, "none with protocol " + protocol.label()
                        + ": certificates are for tcps, wss, https, h2 and grpcs"));
            } else {
                try {
                    TlsMaterial.load(Path.of(certsDirectory));
                } catch (IllegalArgumentException e) { // a bad path (InvalidPathException) among them
                    v.add(new Violation("certsDirectory", certsDirectory, "a directory with " + TlsMaterial.SERVER_PEM
                            + ", " + TlsMaterial.SERVER_KEY_PEM + " (PKCS#8) and " + TlsMaterial.CA_PEM + " that "
                            + "match: " + e.getMessage()));
                }
            }
        }
        if (provider == TlsProvider.OPENSSL) {
            String value = provider.label();
            if (!protocol.secure()) {
                v.add(new Violation("tlsProvider", value, "jdk with protocol " + protocol.label()
                        + ": a TLS provider is for tcps, wss, https, h2 and grpcs"));
            } else if (execution == Execution.VIRTUAL_THREADS) {
                v.add(new Violation("tlsProvider", value, "jdk with virtual-threads execution: its blocking sockets "
                        + "are the JDK's own TLS sockets"));
            } else if (Tls.openSslUnavailable() != null) {
                v.add(new Violation("tlsProvider", value, "jdk here: Netty's OpenSSL provider does not load ("
                        + Tls.openSslUnavailable() + ")"));
            }
        }
        return v;
    }

    /**
     * WebSocket, HTTP and HTTP/2 run on Netty loops only (netty and reactive): the JDK has no blocking WebSocket
     * server, nor an HTTP/1.1 server with pipelining, nor an HTTP/2 server, for virtual threads. HTTP's reactive client
     * is Reactor Netty's HttpClient, which sends one request at a time per HTTP/1.1 connection: window 1. gRPC runs on
     * the netty execution only, its method and grpc-java's default executor going with it alone.
     */
    private static void executionRules(RunSpec s, List<Violation> v) {
        if (s.protocol().grpc() && !s.protocol().runsOn(s.execution())) {
            v.add(new Violation("execution", s.execution().label(), "netty with protocol " + s.protocol().label()
                    + ": grpc-java runs on Netty's loops in a pipeline of its own; Reactor Netty has no gRPC, nor is "
                    + "there a blocking one"));
        } else if (!s.protocol().runsOn(s.execution())) {
            String server = switch (s.protocol()) {
                case HTTP, HTTPS -> "HTTP/1.1 server with pipelining";
                case H2C, H2 -> "HTTP/2 server";
                default -> "WebSocket server or client";
            };
            v.add(new Violation("execution", s.execution().label(), "netty or reactive with protocol "
                    + s.protocol().label() + ": the JDK has no blocking " + server + " for virtual threads to run"));
        }
        if (!s.protocol().grpc()) {
            if (s.grpcMethod() != GrpcMethod.UNARY) {
                v.add(new Violation("grpcMethod", s.grpcMethod().label(), "unary with protocol "
                        + s.protocol().label() + ": the method is grpc's"));
            }
            if (s.offload() == Offload.GRPC_DEFAULT) {
                v.add(new Violation("offload", s.offload().label(), "loop, executor or virtual-threads with protocol "
                        + s.protocol().label() + ": grpc-default is grpc-java's own executor"));
            }
        }
        if (s.window() > 1 && !s.protocol().pipelinesOn(s.execution())) {
            v.add(new Violation("window", String.valueOf(s.window()), "1 with protocol " + s.protocol().label()
                    + " and " + s.execution().label() + " execution: Reactor Netty's HttpClient sends one request at "
                    + "a time per connection and never pipelines; use the netty execution to pipeline"));
        }
    }

    /** Batched reads are epoll's recvmmsg on a Netty datagram channel. */
    private static void datagramRules(RunSpec s, List<Violation> v) {
        range(v, SpecField.DATAGRAMS_PER_READ, s.datagramsPerRead());
        if (s.datagramsPerRead() > 1) {
            String value = String.valueOf(s.datagramsPerRead());
            if (s.protocol() != Protocol.UDP) {
                v.add(new Violation("datagramsPerRead", value, "1 with protocol " + s.protocol().label()
                        + ": batched reads are for UDP"));
            } else if (s.execution() == Execution.VIRTUAL_THREADS) {
                v.add(new Violation("datagramsPerRead", value, "1 with virtual-threads execution: the JDK's "
                        + "sockets read one datagram per call"));
            } else if (s.transport() != Transport.AUTO && s.transport() != Transport.EPOLL) {
                v.add(new Violation("datagramsPerRead", value, "1 with transport " + s.transport().label()
                        + ": batched reads (recvmmsg) need the epoll transport (or auto, where it loads)"));
            }
        }
    }

    private static void range(List<Violation> v, SpecField field, Number value) {
        if (!field.range().contains(value.doubleValue())) {
            v.add(new Violation(field.field(), String.valueOf(value), field.range().text()));
        }
    }
}
