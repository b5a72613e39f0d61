package io.loopbench.engine.protocol.http;

import io.loopbench.engine.protocol.BlockingServer;
import io.loopbench.engine.protocol.BlockingSocket;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.MessageFraming;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.tls.Tls;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.NetUtil;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.function.Consumer;

/**
 * HTTP/1.1 ({@code http}), or HTTP over TLS ({@code https}) with {@link Tls}'s material, contexts and session record:
 * TCP's options, Netty's HTTP/1.1 codec, and each message one {@code POST /echo} request ({@code Host},
 * {@code Content-Length}, the message as body) on one keep-alive connection per client, answered {@code 200} with
 * the same body ({@link HttpFraming}). The client pipelines: its window's requests go out without waiting for
 * responses, which come back in order, so a message's RTT includes its wait behind the responses before it, as in
 * arknet. The codec and {@link WholeMessages} sit between the transport (or its SslHandler) and Reactor Netty's
 * bridge, so an echo end added to the connection gets whole requests or responses. No blocking counterpart: the JDK
 * has no blocking HTTP/1.1 server with pipelining, so the virtual-threads execution is refused before it gets here.
 *
 * <p>Threads: stateless but for the wrapped {@link Tls} (see there).
 */
public final class Http implements EchoProtocol {

    /** The one path the server echoes on; another gets 404. */
    static final String PATH = "/echo";

    private final Tls tls;

    /** @param tls the TLS under HTTP ({@code https}); null for plain {@code http} */
    public Http(Tls tls) {
        this.tls = tls;
    }

    @Override
    public boolean stream() {
        return true;
    }

    @Override
    public MessageFraming framing(InetSocketAddress server, int payloadBytes) {
        // Host names the authority connected to, as a URI would: an IPv6 literal in brackets.
        return new HttpFraming(NetUtil.toSocketAddressString(server), payloadBytes);
    }

    @Override
    public TlsSession tlsSession() {
        return tls == null ? null : tls.tlsSession();
    }

    @Override
    public DisposableChannel bind(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                  ChannelGroup accepted, Consumer<Connection> ends) {
        TcpServer server = Tcp.server(loops, address, accepted);
        if (tls != null) {
            server = tls.secure(server);
        }
        return server
                .doOnChannelInit((observer, channel, remote) -> Tcp.addBeforeBridge(channel.pipeline(),
                        new HttpServerCodec(decoder(payloadBytes)),
                        new WholeMessages(WholeMessages.maxBytes(payloadBytes))))
                .doOnConnection(ends)
                .bindNow(SETUP_TIMEOUT);
    }

    @Override
    public Connection connect(EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                              Consumer<Connection> attach) {
        TcpClient client = Tcp.client(loops, server);
        if (tls != null) {
            // Reactor Netty hands the connection over once the handshake is done (a failed one fails connectNow).
            client = tls.secure(client);
        }
        return client
                .doOnChannelInit((observer, channel, remote) -> Tcp.addBeforeBridge(channel.pipeline(),
                        new HttpClientCodec(decoder(payloadBytes), false, false),
                        new WholeMessages(WholeMessages.maxBytes(payloadBytes))))
                .doOnConnected(attach)
                .connectNow(SETUP_TIMEOUT);
    }

    /**
     * The decoder's settings: a body may come as one piece as large as any WholeMessages accepts, so that one read
     * whole is handed on without a copy (the default cuts bodies into pieces of 8 KiB, copying every larger message).
     */
    private static HttpDecoderConfig decoder(int payloadBytes) {
        return new HttpDecoderConfig().setMaxChunkSize(WholeMessages.maxBytes(payloadBytes));
    }

    @Override
    public BlockingServer bind(InetSocketAddress address) {
        throw new UnsupportedOperationException("the JDK has no blocking HTTP/1.1 server with pipelining");
    }

    @Override
    public BlockingSocket connect(SocketAddress server) {
        throw new UnsupportedOperationException("the JDK has no blocking HTTP/1.1 client with pipelining");
    }
}
