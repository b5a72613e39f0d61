package io.loopbench.engine.protocol;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * A protocol's Netty echo server bound on a loop of its own at 127.0.0.1, port 0, for a test that owns it and
 * closes it (connections, server, loop) when done. Confined to the test's thread.
 */
public final class EchoServerFixture implements AutoCloseable {

    /** Where every fixture binds. */
    public static final InetSocketAddress ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    public final EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final DefaultChannelGroup accepted = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final DisposableChannel server;

    /** The protocol's Netty server, each end handed to {@code ends}. */
    public EchoServerFixture(EchoProtocol protocol, int payloadBytes, Consumer<Connection> ends) {
        this((loops, accepted) -> protocol.bind(loops, ANY_PORT, payloadBytes, accepted, ends));
    }

    /** A server bound by {@code bind} on the fixture's loops, its accepted connections joining the given group. */
    public EchoServerFixture(BiFunction<EventLoopGroup, ChannelGroup, DisposableChannel> bind) {
        server = bind.apply(loops, accepted);
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.address();
    }

    @Override
    public void close() {
        server.disposeNow();
        accepted.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
