package io.loopbench.engine.protocol.http2;

import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.Http2Setup;
import io.loopbench.engine.protocol.MessageFraming;
import io.loopbench.engine.protocol.ReactiveRequests;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.protocol.http.Http;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.tls.Tls;
import io.loopbench.engine.spec.RunSpec;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.util.NetUtil;
import org.reactivestreams.Publisher;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;
import reactor.netty.http.Http2SettingsSpec;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.Http2AllocationStrategy;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

import java.net.InetSocketAddress;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * HTTP/2 over cleartext TCP ({@code h2c}, prior knowledge: no upgrade), or over TLS ({@code h2}, {@link Tls}'s material,
 * contexts and session record, agreeing on {@code h2} by ALPN): TCP's options, both ends announcing {@link #SETTINGS},
 * and each message one {@code POST /echo} stream. A client's {@code window} is its concurrent streams on its one
 * connection; {@code clients} its connections. The netty execution's ends ({@link EchoProtocol}): Netty's
 * {@code Http2FrameCodec} writing each stream whole ({@link InOrderCodec}), each stream's frames gathered and written
 * by {@link Http2Messages} ({@link Http2Framing}), so that the echo ends are the same handlers as every framed
 * protocol's and a connection's streams complete in order. The reactive execution's ({@link ReactiveRequests}):
 * Reactor Netty's {@code HttpServer} routing {@code POST /echo} to the echo handler, and its {@code HttpClient}
 * sending each message at once as a stream of its own on the one connection of its own pool; those streams may
 * complete in any order. No blocking counterpart: the JDK has no HTTP/2 server, so the virtual-threads execution is
 * refused before it gets here.
 *
 * <p>Threads: stateless but for the wrapped {@link Tls} (see there); a client's set-up (its first PING, or its first
 * request) is awaited by the thread that connects, answered on the connection's event loop.
 */
public final class Http2 implements EchoProtocol, ReactiveRequests {

    /** The application protocol h2's TLS agrees on by ALPN. */
    public static final String ALPN = ApplicationProtocolNames.HTTP_2;

    private final Tls tls;

    /** @param tls the TLS under HTTP/2 ({@code h2}), offering {@link #ALPN}; null for {@code h2c} */
    public Http2(Tls tls) {
        this.tls = tls;
    }

    @Override
    public TlsSession tlsSession() {
        return tls == null ? null : tls.tlsSession();
    }

    /**
     * Both ends' settings: as many concurrent streams as a window may have, each stream's flow-control window 16 MiB,
     * HTTP/2's default 16 KiB frames.
     */
    public static final Http2Settings SETTINGS = Http2Settings.defaultSettings()
            .maxConcurrentStreams(RunSpec.MAX_WINDOW)
            .initialWindowSize(Http2Messages.WINDOW_BYTES);

    /**
     * Each end's connection window, about 32 MiB: SETTINGS cannot widen it from HTTP/2's 65,535 bytes, but Netty's
     * frame codec, given a larger stream window, widens it at the start by twice the difference (its first
     * WINDOW_UPDATE, after its SETTINGS) and refills it to that.
     */
    static final int CONNECTION_WINDOW_BYTES = Http2CodecUtil.DEFAULT_WINDOW_SIZE
            + 2 * (Http2Messages.WINDOW_BYTES - Http2CodecUtil.DEFAULT_WINDOW_SIZE);

    /**
     * Both ends' write-buffer marks, as wide as the flow-control windows: the frame codec's flow controller writes no
     * more than the channel takes before it turns unwritable, and below that shares the bytes among the streams, so that
     * a later stream's last frame could leave before an earlier one's and the echoes come back out of order.
     */
    static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(Http2Messages.WINDOW_BYTES,
            2 * Http2Messages.WINDOW_BYTES);

    @Override
    public Http2Setup http2Setup() {
        return new Http2Setup(SETTINGS.maxConcurrentStreams(), SETTINGS.initialWindowSize(), CONNECTION_WINDOW_BYTES,
                Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE);
    }

    @Override
    public boolean stream() {
        return true;
    }

    @Override
    public MessageFraming framing(InetSocketAddress server, int payloadBytes) {
        return new Http2Framing(tls == null ? "http" : "https", NetUtil.toSocketAddressString(server), payloadBytes);
    }

    @Override
    public DisposableChannel bind(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                  ChannelGroup accepted, Consumer<Connection> ends) {
        TcpServer server = Tls.secure(tls, Tcp.server(loops, address, accepted));
        return server
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .doOnChannelInit((observer, channel, remote) -> frames(channel, false))
                .doOnConnection(ends)
                .bindNow(SETUP_TIMEOUT);
    }

    @Override
    public Connection connect(EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                              Consumer<Connection> attach) {
        TcpClient client = Tls.secure(tls, Tcp.client(loops, server));
        Connection connection = client
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .doOnChannelInit((observer, channel, remote) -> frames(channel, true))
                .doOnConnected(attach)
                .connectNow(SETUP_TIMEOUT);
        Http2Messages messages = connection.channel().pipeline().get(Http2Messages.class);
        if (!messages.ready().awaitUninterruptibly(SETUP_TIMEOUT.toMillis()) || !messages.ready().isSuccess()) {
            connection.disposeNow(SETUP_TIMEOUT);
            throw new IllegalStateException((tls == null ? "h2c: " : "h2: ") + NetUtil.toSocketAddressString(server)
                    + " did not answer the connection's first PING within " + SETUP_TIMEOUT.toSeconds() + " s");
        }
        return connection;
    }

    @Override
    public DisposableChannel bindRequests(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                          ChannelGroup accepted, Consumer<Connection> served,
                                          BiFunction<? super HttpServerRequest, ? super HttpServerResponse,
                                                  ? extends Publisher<Void>> echo,
                                          Consumer<String> refused) {
        HttpServer server = Tls.secure(tls, Tcp.server(HttpServer.create(), loops, address))
                .protocol(httpProtocol())
                .http2Settings(Http2::settings);
        // Reactor Netty reports each stream as a connection of its own, and would add each stream to a channel group it
        // is given (the TCP connection only with its first stream): each TCP connection is served, and joins the group,
        // once, when accepted, and no stream costs a group's add and remove.
        return Http.bindEcho(server.doOnChannelInit((observer, channel, remote) -> {
            accepted.add(channel);
            served.accept(() -> channel);
        }), echo, refused);
    }

    @Override
    public Requests connectRequests(EventLoopGroup loops, InetSocketAddress server, int payloadBytes, ByteBuf first,
                                    Runnable released) {
        // One connection, kept alive, with room for a whole window of streams; nothing evicts it (the defaults).
        ConnectionProvider pool = ConnectionProvider.builder("loopbench-http2")
                .allocationStrategy(Http2AllocationStrategy.builder()
                        .maxConnections(1)
                        .maxConcurrentStreams(SETTINGS.maxConcurrentStreams())
                        .build())
                .build();
        HttpClient client = Tls.secure(tls, Http.client(pool, loops, server)
                .protocol(httpProtocol())
                .http2Settings(Http2::settings));
        return Http.openRequests(pool, client, server, first);
    }

    @Override
    public boolean multiplexed() {
        return true;
    }

    private HttpProtocol httpProtocol() {
        return tls == null ? HttpProtocol.H2C : HttpProtocol.H2;
    }

    /** Reactor Netty's ends announce {@link #SETTINGS} too, their frames left at HTTP/2's default size as there. */
    private static void settings(Http2SettingsSpec.Builder spec) {
        spec.maxConcurrentStreams(SETTINGS.maxConcurrentStreams()).initialWindowSize(SETTINGS.initialWindowSize());
    }

    /** The frame codec and the handler that gathers its frames into messages, before Reactor Netty's bridge. */
    private static void frames(Channel channel, boolean client) {
        Tcp.addBeforeBridge(channel.pipeline(), client ? InOrderCodec.client() : InOrderCodec.server(),
                new Http2Messages(client));
    }
}
