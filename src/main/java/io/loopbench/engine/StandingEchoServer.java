package io.loopbench.engine;

import io.loopbench.engine.loop.LoopLayout;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.netty.HandlerEnds;
import io.grpc.netty.NettyServerBuilder;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.grpc.EchoService;
import io.loopbench.engine.protocol.grpc.Grpc;
import io.loopbench.engine.server.RawEchoHandler;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerStats;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.SpecField;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.ImmediateEventExecutor;
import reactor.netty.DisposableChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * An echo server that stays up until it is closed, for runs from other hosts ({@code target}): on its own loops
 * (shared model), it echoes bytes verbatim — or, when told the clients' message size, cuts messages, checks their
 * header and runs the configured work per message, as a repetition's server does. Thread-safe; {@link #close()}
 * releases every loop and socket.
 */
public final class StandingEchoServer implements AutoCloseable {

    /**
     * @param payloadBytes   the clients' message size, needed to run work per message and by a framed protocol (see
     *                       {@link Protocol#framed()}); null echoes raw bytes
     * @param certsDirectory a TLS protocol's server.pem and server-key.pem (with ca.pem); null for the throw-away
     *                       certificate for 127.0.0.1 and ::1, which only this JVM's clients trust
     * @param tlsProvider    a TLS protocol's provider
     */
    public record Config(Protocol protocol, InetAddress bindAddress, int port, int ioThreads, Transport transport,
                         int work, Integer payloadBytes, String certsDirectory, TlsProvider tlsProvider) {

        /**
         * What the engine refuses of a standing echo server, beyond each field's range: TLS settings as a run's, and a
         * framed protocol without a message size.
         */
        public List<Violation> violations() {
            List<Violation> v = new ArrayList<>(RunSpec.tlsViolations(protocol, certsDirectory, tlsProvider,
                    Execution.NETTY));
            if (protocol.framed() && payloadBytes == null) {
                v.add(new Violation("payloadBytes", "none", SpecField.PAYLOAD_BYTES.range().text() + " with protocol "
                        + protocol.label()
                        + ": each message is one " + (protocol == Protocol.WEBSOCKET || protocol == Protocol.WSS
                        ? "WebSocket frame" : "HTTP request") + ", checked and answered whole"));
            }
            return v;
        }
    }

    /**
     * @param connections TCP connections accepted
     * @param bytes       bytes echoed (raw mode; gRPC: its messages' bytes)
     * @param datagrams   datagrams echoed (UDP, raw mode)
     * @param errors      failed writes, exceptions and malformed messages
     */
    public record Snapshot(long connections, long bytes, long datagrams, long errors) {
    }

    private final Config config;
    private final Transport transport;
    private final LoopLayout layout;
    private final ChannelGroup accepted = new DefaultChannelGroup(ImmediateEventExecutor.INSTANCE);
    private final LongAdder connections = new LongAdder();
    private final RawEchoHandler.Counts counts = new RawEchoHandler.Counts();
    private final ServerStats stats = new ServerStats();
    private final DisposableChannel server;

    private StandingEchoServer(Config config) {
        this.config = config;
        this.transport = Transports.resolve(config.transport());
        this.layout = new LoopLayout(IoModel.SHARED, config.ioThreads(), transport);
        try {
            EchoProtocol protocol = Protocols.standing(config);
            this.server = protocol instanceof Grpc grpc ? grpc(grpc, config) : protocol.bind(layout.group(0), new InetSocketAddress(config.bindAddress(), config.port()),
                    config.payloadBytes() != null ? config.payloadBytes() : RunSpec.MAX_PAYLOAD, accepted, end -> {
                        // Raw bytes back, or — told the message size — a repetition's netty server end.
                        if (config.payloadBytes() == null) {
                            end.addHandlerLast("echo", new RawEchoHandler(counts));
                        } else {
                            new HandlerEnds(config.payloadBytes(), new ServerCheck(config.work(), stats), null,
                                    protocol).server(end);
                        }
                        if (protocol.stream()) {
                            connections.increment();
                        }
                    });
        } catch (RuntimeException e) {
            layout.close();
            throw e;
        }
    }

    /**
     * gRPC's server: grpc-java's pipeline is its own, so the echo is its service's — each message back as it came, or,
     * told the message size, checked and worked on as a repetition's server does — its calls run on the loop.
     */
    private DisposableChannel grpc(Grpc grpc, Config config) {
        ServerCheck check = new ServerCheck(config.work(), stats);
        return grpc.bind(layout.group(0), new InetSocketAddress(config.bindAddress(), config.port()), accepted,
                end -> connections.increment(), EchoService.of(config.payloadBytes() == null ? m -> {
                    counts.echoed(m.readableBytes());
                    return true;
                } : check::accept), NettyServerBuilder::directExecutor);
    }

    /** Binds and starts a server; throws when the address cannot be bound (the loops are released then). */
    public static StandingEchoServer start(Config config) {
        return new StandingEchoServer(config);
    }

    /** The port it listens on (the one given, or the ephemeral one chosen for port 0). */
    public int port() {
        return ((InetSocketAddress) server.address()).getPort();
    }

    public Transport transport() {
        return transport;
    }

    public String channelClass() {
        return server.channel().getClass().getSimpleName();
    }

    public Snapshot counts() {
        long errors = counts.errors();
        for (int tag = 0; tag < 2; tag++) {
            errors += stats.contentErrors(tag) + stats.exceptions(tag);
        }
        return new Snapshot(connections.sum(), counts.bytes(), counts.datagrams(), errors);
    }

    @Override
    public void close() {
        try {
            server.disposeNow(Duration.ofSeconds(3));
        } catch (RuntimeException e) {
            // the loops' shutdown closes whatever is left
        }
        accepted.close().awaitUninterruptibly(3, TimeUnit.SECONDS);
        layout.close();
    }
}
