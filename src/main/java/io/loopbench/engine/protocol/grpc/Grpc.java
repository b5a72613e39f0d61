package io.loopbench.engine.protocol.grpc;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.InternalProtocolNegotiators;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.Http2Setup;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.protocol.tls.Tls;
import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.Transport;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ReflectiveChannelFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.NetUtil;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * gRPC ({@code grpc}) on grpc-java's Netty transport, run as its users run it when they hand it their own loops: a
 * {@code NettyServerBuilder} whose boss and worker groups are the given loops and whose channel type is theirs, and a
 * {@code NettyChannelBuilder} per client, on one loop of the given ones, plaintext (HTTP/2 with prior knowledge) or,
 * for {@code grpcs}, over {@link Tls} (its material and provider, {@code h2} by ALPN, the client verifying the
 * server's IP; grpc-java's own TLS negotiators built on its contexts), with
 * grpc-java's own HTTP/2 settings ({@link #http2Setup}). Each message is one {@code loopbench.Echo} call's message
 * ({@link GrpcMethods}): unary, or on one bidirectional stream per client. TCP_NODELAY is on at both ends, as grpc-java
 * sets it; retries are off, lest a message be sent twice. A client's channel is connected before it is handed over
 * and never reconnects: once its connection closes, it is shut down.
 *
 * <p>Bound and connected through {@link EchoProtocol}, the server echoes every message unchecked on the loop (the
 * standing server's raw echo) and a connection carries no calls of its own; the engine's gRPC ends use
 * {@link #bind(EventLoopGroup, InetSocketAddress, ChannelGroup, Consumer, ServerServiceDefinition, Consumer)} with the
 * checked service and where its calls run, and start the calls themselves. Stateless.
 */
public final class Grpc implements EchoProtocol {

    private final GrpcMethod method;
    private final Tls tls;

    /**
     * @param method the method its clients call
     * @param tls    the TLS under HTTP/2 ({@code grpcs}), offering {@code h2} by ALPN; null for plaintext
     *               ({@code grpc})
     */
    public Grpc(GrpcMethod method, Tls tls) {
        this.method = method;
        this.tls = tls;
    }

    @Override
    public TlsSession tlsSession() {
        return tls == null ? null : tls.tlsSession();
    }

    public GrpcMethod method() {
        return method;
    }

    @Override
    public boolean stream() {
        return true;
    }

    /**
     * grpc-java's defaults, which loopbench keeps: no limit on concurrent streams, 1 MiB windows for each stream and the
     * connection (which its flow control then tunes to the measured bandwidth-delay product), 16 KiB frames.
     */
    @Override
    public Http2Setup http2Setup() {
        return new Http2Setup(Integer.MAX_VALUE, NettyChannelBuilder.DEFAULT_FLOW_CONTROL_WINDOW,
                NettyChannelBuilder.DEFAULT_FLOW_CONTROL_WINDOW, Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE);
    }

    @Override
    public DisposableChannel bind(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                  ChannelGroup accepted, Consumer<Connection> ends) {
        return bind(loops, address, accepted, ends, EchoService.of(m -> true), NettyServerBuilder::directExecutor);
    }

    /**
     * Binds a gRPC server on these loops serving {@code service}.
     *
     * @param served gets each accepted connection, on its loop, before it reads: for the caller's records only (its
     *               pipeline is grpc-java's)
     * @param calls  where its calls run: sets the builder's executor ({@code directExecutor()}, an executor of its
     *               own), or leaves grpc-java's default
     */
    public DisposableChannel bind(EventLoopGroup loops, InetSocketAddress address, ChannelGroup accepted,
                                  Consumer<Connection> served, ServerServiceDefinition service,
                                  Consumer<NettyServerBuilder> calls) {
        Transport transport = Transports.of(loops);
        ReflectiveChannelFactory<? extends ServerChannel> channels =
                new ReflectiveChannelFactory<>(Transports.serverSocketChannel(transport));
        AtomicReference<ServerChannel> listener = new AtomicReference<>();
        NettyServerBuilder builder = NettyServerBuilder.forAddress(address)
                .channelFactory(() -> {
                    ServerChannel c = channels.newChannel();
                    listener.set(c);
                    return c;
                })
                .bossEventLoopGroup(loops)
                .workerEventLoopGroup(loops)
                .withChildOption(ChannelOption.TCP_NODELAY, true)
                .protocolNegotiator(new RecordingNegotiator(tls == null ? InternalProtocolNegotiators.serverPlaintext()
                        : InternalProtocolNegotiators.serverTls(tls.serverContext()), c -> {
                    accepted.add(c);
                    served.accept(() -> c);
                }))
                .addService(service);
        calls.accept(builder);
        Server server = builder.build();
        try {
            server.start();
        } catch (IOException e) {
            server.shutdownNow();
            throw new UncheckedIOException("grpc: cannot bind " + NetUtil.toSocketAddressString(address), e);
        }
        return new GrpcServer(server, listener.get());
    }

    @Override
    public Connection connect(EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                              Consumer<Connection> attach) {
        GrpcConnection connection = connect(loops, server);
        connection.channel().eventLoop().execute(() -> attach.accept(connection));
        return connection;
    }

    /**
     * Connects one client's channel on one of these loops, its calls' callbacks run on that loop
     * ({@code directExecutor()}), and returns it once its connection is ready.
     *
     * @throws IllegalStateException when it is not ready within {@link #SETUP_TIMEOUT}
     */
    public GrpcConnection connect(EventLoopGroup loops, InetSocketAddress server) {
        EventLoop loop = loops.next();
        ReflectiveChannelFactory<? extends Channel> channels =
                new ReflectiveChannelFactory<>(Transports.socketChannel(Transports.of(loops)));
        AtomicReference<Channel> made = new AtomicReference<>();
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(server)
                .eventLoopGroup(loop)
                .channelFactory(() -> {
                    Channel c = channels.newChannel();
                    made.set(c);
                    return c;
                })
                .withOption(ChannelOption.TCP_NODELAY, true)
                .directExecutor()
                .disableRetry();
        ManagedChannel managed = (tls == null ? builder.usePlaintext() : builder.sslContext(tls.clientContext()))
                .build();
        try {
            awaitReady(managed);
        } catch (RuntimeException e) {
            managed.shutdownNow();
            throw new IllegalStateException("grpc: " + NetUtil.toSocketAddressString(server) + " " + e.getMessage(),
                    e);
        }
        Channel channel = made.get();
        if (tls != null) {
            tls.recordHandshake(channel.pipeline().get(SslHandler.class));
        }
        // A lost connection ends the client's: grpc-java would open another behind its back.
        channel.closeFuture().addListener(f -> managed.shutdownNow());
        return new GrpcConnection(managed, channel);
    }

    private static void awaitReady(ManagedChannel managed) {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        watch(managed, ready);
        try {
            ready.get(SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("was not connected within " + SETUP_TIMEOUT.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while connecting", e);
        }
    }

    /** Follows the channel's state from idle to ready; a failure is final (no backoff and retry). */
    private static void watch(ManagedChannel managed, CompletableFuture<Void> ready) {
        ConnectivityState state = managed.getState(true);
        switch (state) {
            case READY -> ready.complete(null);
            case TRANSIENT_FAILURE, SHUTDOWN -> ready.completeExceptionally(
                    new IllegalStateException("refused the connection (" + state + ")"));
            default -> managed.notifyWhenStateChanged(state, () -> watch(managed, ready));
        }
    }

    /** grpc-java's awaitTermination, of a server or a channel. */
    private interface Termination {
        boolean await(long time, TimeUnit unit) throws InterruptedException;
    }

    /** Waits, bounded, until what was shut down has ended, or says it has not. */
    private static void awaitEnd(String what, Duration timeout, Termination termination) {
        try {
            if (!termination.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("grpc: " + what + " did not end within " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("grpc: interrupted while " + what + " ended", e);
        }
    }

    /** A gRPC server as the pair holds it: its listening channel; disposing it shuts the server down. */
    private record GrpcServer(Server server, ServerChannel listener) implements DisposableChannel {

        @Override
        public Channel channel() {
            return listener;
        }

        @Override
        public SocketAddress address() {
            return server.getListenSockets().getFirst();
        }

        @Override
        public void dispose() {
            server.shutdownNow();
        }

        @Override
        public void disposeNow(Duration timeout) {
            server.shutdownNow();
            awaitEnd("the server", timeout, server::awaitTermination);
        }
    }

    /**
     * One client's connection: its grpc-java channel, and the Netty channel under it, whose loop runs its calls'
     * callbacks. Disposing it shuts the channel down, closing the connection.
     */
    public record GrpcConnection(ManagedChannel managed, Channel channel) implements Connection {

        @Override
        public void dispose() {
            managed.shutdownNow();
        }

        @Override
        public void disposeNow(Duration timeout) {
            managed.shutdownNow();
            awaitEnd("a client's channel", timeout, managed::awaitTermination);
        }
    }
}
