package io.loopbench.engine.protocol.http2;

import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.Http2Setup;
import io.loopbench.engine.protocol.MessageFraming;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.tls.Tls;
import io.loopbench.engine.spec.RunSpec;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.util.NetUtil;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * HTTP/2 over cleartext TCP ({@code h2c}, prior knowledge: no upgrade), or over TLS ({@code h2}, {@link Tls}'s material,
 * contexts and session record, agreeing on {@code h2} by ALPN): TCP's options, Netty's {@code Http2FrameCodec}
 * on both ends with {@link #SETTINGS}, writing each stream whole ({@link InOrderCodec}), and each message one {@code POST /echo} stream ({@link Http2Framing}), its
 * frames gathered and written by {@link Http2Messages}. A client's {@code window} is its concurrent streams on its one
 * connection; {@code clients} its connections. The netty execution only, for now: the echo ends are the same handlers
 * as every framed protocol's. Stateless.
 */
public final class Http2 implements EchoProtocol {

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

    /** The frame codec and the handler that gathers its frames into messages, before Reactor Netty's bridge. */
    private static void frames(Channel channel, boolean client) {
        Tcp.addBeforeBridge(channel.pipeline(), client ? InOrderCodec.client() : InOrderCodec.server(),
                new Http2Messages(client));
    }
}
