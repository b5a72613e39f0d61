package io.loopbench.engine.protocol.tcp;

import io.loopbench.engine.protocol.BlockingServer;
import io.loopbench.engine.protocol.BlockingSocket;
import io.loopbench.engine.protocol.BlockingProtocol;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.resolver.DefaultAddressResolverGroup;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;
import reactor.netty.NettyPipeline;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;
import reactor.netty.transport.ClientTransport;
import reactor.netty.transport.ServerTransport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.function.Consumer;

/** TCP: a byte stream, with TCP_NODELAY on every connection at both ends. Stateless. */
public final class Tcp implements BlockingProtocol {

    @Override
    public boolean stream() {
        return true;
    }

    @Override
    public DisposableChannel bind(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                  ChannelGroup accepted, Consumer<Connection> ends) {
        return server(loops, address, accepted)
                .doOnConnection(ends)
                .bindNow(SETUP_TIMEOUT);
    }

    @Override
    public Connection connect(EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                              Consumer<Connection> attach) {
        return client(loops, server)
                .doOnConnected(attach)
                .connectNow(SETUP_TIMEOUT);
    }

    /**
     * A server on these loops with TCP's options on every accepted connection, each joining {@code accepted}: this
     * protocol's, and the base of every protocol layered on TCP (tcps, websocket, wss, http, https).
     */
    public static TcpServer server(EventLoopGroup loops, InetSocketAddress address, ChannelGroup accepted) {
        return server(TcpServer.create(), loops, address, accepted);
    }

    /** The same options on any Reactor Netty server: HttpServer, for a protocol layered on HTTP (websocket, wss). */
    public static <S extends ServerTransport<S, ?>> S server(S server, EventLoopGroup loops, InetSocketAddress address,
                                                             ChannelGroup accepted) {
        return server(server, loops, address).channelGroup(accepted);
    }

    /**
     * TCP's options on a Reactor Netty server whose caller records its accepted connections itself: HTTP/2's, which
     * would add every stream to a channel group too, a cost per message.
     */
    public static <S extends ServerTransport<S, ?>> S server(S server, EventLoopGroup loops,
                                                             InetSocketAddress address) {
        return server
                .bindAddress(() -> address)
                .runOn(loops)
                .childOption(ChannelOption.TCP_NODELAY, true);
    }

    /** A new connection (never pooled) on these loops with TCP's options; see {@link #server}. */
    public static TcpClient client(EventLoopGroup loops, InetSocketAddress server) {
        return client(TcpClient.newConnection(), loops).remoteAddress(() -> server);
    }

    /**
     * TCP's client options on any Reactor Netty client (HttpClient: pass a never-pooled one); the caller names the
     * server (an address, or HttpClient's URI). The JDK's resolver: Reactor Netty's default runs on its global loops.
     */
    public static <C extends ClientTransport<C, ?>> C client(C client, EventLoopGroup loops) {
        return client
                .resolver(DefaultAddressResolverGroup.INSTANCE)
                .runOn(loops)
                .option(ChannelOption.TCP_NODELAY, true);
    }

    /**
     * Adds a protocol's codec handlers at channel init, in order, before Reactor Netty's bridge (which Reactor Netty
     * adds before calling channel-init hooks), so that an echo end added to the connection gets what they decode.
     */
    public static void addBeforeBridge(ChannelPipeline pipeline, ChannelHandler... handlers) {
        for (ChannelHandler h : handlers) {
            if (pipeline.get(NettyPipeline.ReactiveBridge) != null) {
                pipeline.addBefore(NettyPipeline.ReactiveBridge, null, h);
            } else {
                pipeline.addLast(h);
            }
        }
    }

    /** A blocking socket connected with TCP's options; see {@link #server}. */
    public static Socket socket(SocketAddress server) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(server, (int) SETUP_TIMEOUT.toMillis());
        return s;
    }

    @Override
    public BlockingServer bind(InetSocketAddress address) throws IOException {
        ServerSocket s = new ServerSocket();
        s.bind(address);
        return new TcpListener(s);
    }

    @Override
    public BlockingSocket connect(SocketAddress server) throws IOException {
        return new TcpSocket(socket(server));
    }
}
