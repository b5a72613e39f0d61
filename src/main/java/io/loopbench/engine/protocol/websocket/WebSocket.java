package io.loopbench.engine.protocol.websocket;

import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.ReactiveProtocol;
import io.loopbench.engine.protocol.MessageFraming;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.tls.Tls;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.util.ReferenceCountUtil;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;
import reactor.netty.NettyInbound;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.WebsocketClientSpec;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.WebsocketServerSpec;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * WebSocket ({@code websocket}), or WebSocket over TLS ({@code wss}) with {@link Tls}'s material, contexts and session
 * record: TCP's options, an HTTP/1.1 upgrade on {@link #PATH}, then one binary frame per message each way
 * ({@link #framing}); the client masks its frames, as RFC 6455 requires. A client is handed over only once its
 * upgrade is done, so that no message's RTT includes it.
 *
 * <p>Two sets of ends speak it. The netty execution's ({@link EchoProtocol}): Netty's HTTP codec and WebSocket
 * protocol handlers between the transport (or its SslHandler) and Reactor Netty's bridge, so that an echo end added
 * to the connection gets whole frames. The reactive execution's ({@link ReactiveProtocol}): Reactor Netty's
 * {@code HttpServer} routing {@link #PATH} to a WebSocket handler and its {@code HttpClient.websocket()}, whose
 * handlers get the upgraded connection's frames. No blocking counterpart: the JDK has no WebSocket server, so the
 * virtual-threads execution is refused before it gets here.
 *
 * <p>Threads: stateless but for the wrapped {@link Tls} (see there); each upgrade is awaited by the thread that
 * connects, completed on the connection's event loop.
 */
public final class WebSocket implements EchoProtocol, ReactiveProtocol {

    /** The path the client upgrades on; any other request gets 404 and is closed. */
    public static final String PATH = "/echo";
    /** Room for the upgrade's request and response; frames do not go through the aggregator. */
    private static final int MAX_HTTP_BYTES = 8 * 1024;

    private final Tls tls;

    /** @param tls the TLS under the WebSocket ({@code wss}); null for plain {@code websocket} */
    public WebSocket(Tls tls) {
        this.tls = tls;
    }

    @Override
    public boolean stream() {
        return true;
    }

    @Override
    public MessageFraming framing(InetSocketAddress server, int payloadBytes) {
        return WebSocketFraming.INSTANCE;
    }

    @Override
    public TlsSession tlsSession() {
        return tls == null ? null : tls.tlsSession();
    }

    @Override
    public DisposableChannel bind(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                  ChannelGroup accepted, Consumer<Connection> ends) {
        WebSocketServerProtocolConfig config = WebSocketServerProtocolConfig.newBuilder()
                .websocketPath(PATH)
                .checkStartsWith(false)
                .maxFramePayloadLength(maxFrameBytes(payloadBytes))
                .handshakeTimeoutMillis(SETUP_TIMEOUT.toMillis())
                .build();
        TcpServer server = Tls.secure(tls, Tcp.server(loops, address, accepted));
        return server
                .doOnChannelInit((observer, channel, remote) -> Tcp.addBeforeBridge(channel.pipeline(),
                        new HttpServerCodec(), new HttpObjectAggregator(MAX_HTTP_BYTES),
                        new WebSocketServerProtocolHandler(config), new NotFound()))
                .doOnConnection(ends)
                .bindNow(SETUP_TIMEOUT);
    }

    @Override
    public Connection connect(EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                              Consumer<Connection> attach) {
        WebSocketClientProtocolConfig config = WebSocketClientProtocolConfig.newBuilder()
                .webSocketUri(uri(server))
                .version(WebSocketVersion.V13)
                .maxFramePayloadLength(maxFrameBytes(payloadBytes))
                .handshakeTimeoutMillis(SETUP_TIMEOUT.toMillis())
                .build();
        CompletableFuture<Void> upgraded = new CompletableFuture<>();
        TcpClient client = Tls.secure(tls, Tcp.client(loops, server));
        long deadline = System.nanoTime() + SETUP_TIMEOUT.toNanos();
        Connection c = client
                .doOnChannelInit((observer, channel, remote) -> Tcp.addBeforeBridge(channel.pipeline(),
                        new HttpClientCodec(), new HttpObjectAggregator(MAX_HTTP_BYTES),
                        new WebSocketClientProtocolHandler(config), new Upgrade(upgraded)))
                // Reactor Netty reads on demand; the upgrade's response must be read before any echo end is added.
                .doOnConnected(connection -> connection.channel().config().setAutoRead(true))
                .connectNow(SETUP_TIMEOUT);
        await(upgraded, deadline, () -> c.disposeNow(SETUP_TIMEOUT), server);
        c.channel().eventLoop().execute(() -> attach.accept(c));
        return c;
    }

    @Override
    public DisposableChannel bindReactive(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                          ChannelGroup accepted,
                                          Function<? super Connection, ? extends Publisher<Void>> handler) {
        WebsocketServerSpec spec = WebsocketServerSpec.builder().maxFramePayloadLength(maxFrameBytes(payloadBytes))
                .build();
        HttpServer server = Tls.secure(tls, Tcp.server(HttpServer.create(), loops, address, accepted));
        // Any other path, or a request that asks for no upgrade, gets Reactor Netty's 404.
        return server
                .route(routes -> routes.ws(PATH, (in, out) -> handler.apply(connection(in)), spec))
                .bindNow(SETUP_TIMEOUT);
    }

    @Override
    public Connection connectReactive(EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                                      Function<? super Connection, ? extends Publisher<Void>> handler) {
        long deadline = System.nanoTime() + SETUP_TIMEOUT.toNanos();
        HttpClient client = Tls.secure(tls, Tcp.client(HttpClient.newConnection(), loops));
        CompletableFuture<Connection> upgraded = new CompletableFuture<>();
        // Reactor Netty calls the handler on the loop once the upgrade's response is in, and ends the exchange
        // (closing the WebSocket) when what it returned ends.
        Disposable exchange = client
                .websocket(WebsocketClientSpec.builder().maxFramePayloadLength(maxFrameBytes(payloadBytes)).build())
                .uri(uri(server))
                .handle((in, out) -> {
                    Connection c = connection(in);
                    Publisher<Void> messages = handler.apply(c);
                    upgraded.complete(c);
                    return messages;
                })
                .subscribe(null, upgraded::completeExceptionally, () -> upgraded.completeExceptionally(
                        new IllegalStateException("connection closed during the upgrade")));
        return await(upgraded, deadline, exchange::dispose, server);
    }

    /**
     * Waits until a client's upgrade is done or the deadline; on failure closes what the client opened and says why,
     * naming the URI.
     */
    private <T> T await(CompletableFuture<T> upgraded, long deadline, Runnable close, InetSocketAddress server) {
        try {
            return upgraded.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            close.run();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IllegalStateException("WebSocket upgrade on " + uri(server) + " failed: " + cause, cause);
        }
    }

    /** Room for the largest message, and never below Netty's and Reactor Netty's default of 64 KiB. */
    private static int maxFrameBytes(int payloadBytes) {
        return Math.max(payloadBytes, 64 * 1024);
    }

    /** The connection of a Reactor Netty exchange: the operations on the upgraded channel. */
    private static Connection connection(NettyInbound in) {
        Connection[] c = new Connection[1];
        in.withConnection(connection -> c[0] = connection);
        return c[0];
    }

    private URI uri(InetSocketAddress server) {
        try {
            // The multi-argument constructor brackets an IPv6 literal.
            return new URI(tls == null ? "ws" : "wss", null, server.getHostString(), server.getPort(), PATH, null,
                    null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("no WebSocket URI for " + server, e);
        }
    }

    /**
     * Server: answers a request the WebSocket handler did not upgrade (another path, or no upgrade) with 404 and
     * closes, so that a client asking elsewhere fails its set-up at once. Confined to its channel's event loop.
     */
    private static final class NotFound extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof FullHttpRequest request) {
                ReferenceCountUtil.release(request);
                var response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.NOT_FOUND,
                        Unpooled.EMPTY_BUFFER);
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            } else {
                ctx.fireChannelRead(msg);
            }
        }
    }

    /**
     * Client: completes the upgrade's future when the handshake is done (then leaves the pipeline) or fails it
     * with the handshake's error or the connection's close. Confined to its channel's event loop.
     */
    private static final class Upgrade extends ChannelInboundHandlerAdapter {
        private final CompletableFuture<Void> upgraded;

        Upgrade(CompletableFuture<Void> upgraded) {
            this.upgraded = upgraded;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
                ctx.pipeline().remove(this);
                upgraded.complete(null);
            } else if (event == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
                upgraded.completeExceptionally(new TimeoutException("no upgrade response within " + SETUP_TIMEOUT));
            }
            ctx.fireUserEventTriggered(event);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            upgraded.completeExceptionally(cause);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            upgraded.completeExceptionally(new IllegalStateException("connection closed during the upgrade"));
            ctx.fireChannelInactive();
        }
    }
}
