package io.loopbench.engine.protocol;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A protocol's Netty echo server bound on a loop of its own at 127.0.0.1, port 0, for a test that owns it and
 * closes it (connections, server, loop) when done. Confined to the test's thread.
 */
public final class EchoServerFixture implements AutoCloseable {

    public final EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final DefaultChannelGroup accepted = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final DisposableChannel server;

    public EchoServerFixture(EchoProtocol protocol, int payloadBytes, Consumer<Connection> ends) {
        server = protocol.bind(loops, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), payloadBytes,
                accepted, ends);
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
