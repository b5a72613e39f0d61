package io.loopbench.engine.protocol.http;

import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.MessageFraming;
import io.loopbench.engine.protocol.ReactiveRequests;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.tls.Tls;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.NetUtil;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.ConnectionObserver;
import reactor.netty.DisposableChannel;
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
 * HTTP/1.1 ({@code http}), or HTTP over TLS ({@code https}) with {@link Tls}'s material, contexts and session record:
 * TCP's options, Netty's HTTP/1.1 codec, and each message one {@code POST /echo} request ({@code Host},
 * {@code Content-Length}, the message as body) on one keep-alive connection per client, answered {@code 200} with
 * the same body ({@link HttpFraming}). The client pipelines: its window's requests go out without waiting for
 * responses, which come back in order, so a message's RTT includes its wait behind the responses before it, as in
 * arknet. The codec and {@link WholeMessages} sit between the transport (or its SslHandler) and Reactor Netty's
 * bridge, so an echo end added to the connection gets whole requests or responses: the netty execution's ends
 * ({@link EchoProtocol}). The reactive execution's ({@link ReactiveRequests}): Reactor Netty's {@code HttpServer}
 * routing {@code POST /echo} to the echo handler, and its {@code HttpClient} sending each message as one request on
 * the one connection of its own pool, one request at a time (Reactor Netty never pipelines). No blocking counterpart:
 * the JDK has no blocking HTTP/1.1 server with pipelining, so the virtual-threads execution is refused before it gets
 * here.
 *
 * <p>Threads: stateless but for the wrapped {@link Tls} (see there); a reactive client's first request is awaited by
 * the thread that connects, answered on the connection's event loop.
 */
public final class Http implements EchoProtocol, ReactiveRequests {

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
        TcpServer server = Tls.secure(tls, Tcp.server(loops, address, accepted));
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
        TcpClient client = Tls.secure(tls, Tcp.client(loops, server));
        return client
                .doOnChannelInit((observer, channel, remote) -> Tcp.addBeforeBridge(channel.pipeline(),
                        new HttpClientCodec(decoder(payloadBytes), false, false),
                        new WholeMessages(WholeMessages.maxBytes(payloadBytes))))
                .doOnConnected(attach)
                .connectNow(SETUP_TIMEOUT);
    }

    @Override
    public boolean multiplexed() {
        return false;
    }

    @Override
    public DisposableChannel bindRequests(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                          ChannelGroup accepted, Consumer<Connection> served,
                                          BiFunction<? super HttpServerRequest, ? super HttpServerResponse,
                                                  ? extends Publisher<Void>> echo,
                                          Consumer<String> refused) {
        HttpServer server = Tls.secure(tls, Tcp.server(HttpServer.create(), loops, address, accepted));
        // Each connection is served once, when accepted (doOnConnection would call it again for each request of a
        // keep-alive connection).
        return bindEcho(server.childObserve((connection, state) -> {
            if (state == ConnectionObserver.State.CONNECTED) {
                served.accept(connection);
            }
        }), echo, refused);
    }

    /**
     * Binds a reactive echo server whose protocol, TLS and records of its connections the caller has configured
     * (HTTP/1.1's, HTTP/2's): the same request target as the netty ends accept (HttpFraming), exactly {@code POST}
     * {@value #PATH} with no query, goes to {@code echo}; anything else is refused as they refuse it.
     */
    public static DisposableChannel bindEcho(HttpServer server,
                                             BiFunction<? super HttpServerRequest, ? super HttpServerResponse,
                                                     ? extends Publisher<Void>> echo,
                                             Consumer<String> refused) {
        return server
                .route(routes -> routes
                        .route(r -> HttpMethod.POST.equals(r.method()) && PATH.equals(r.uri()), echo)
                        .route(r -> true, (request, response) -> refuse(request, response, refused)))
                .bindNow(SETUP_TIMEOUT);
    }

    /**
     * Answers a request for something else as the netty ends do (HttpFraming): another path 404, another method on
     * the path 405 with {@code Allow}; its body is read first, so that the connection stays in step for the next.
     */
    private static Publisher<Void> refuse(HttpServerRequest request, HttpServerResponse response,
                                          Consumer<String> refused) {
        refused.accept(HttpFraming.describe(request.method(), request.uri()));
        if (PATH.equals(request.uri())) {
            response.status(HttpResponseStatus.METHOD_NOT_ALLOWED).header(HttpHeaderNames.ALLOW,
                    HttpMethod.POST.asciiName());
        } else {
            response.status(HttpResponseStatus.NOT_FOUND);
        }
        return request.receive().then(Mono.defer(response::send));
    }

    @Override
    public Requests connectRequests(EventLoopGroup loops, InetSocketAddress server, int payloadBytes, ByteBuf first,
                                    Runnable released) {
        // One connection, kept alive across the client's requests; nothing evicts it (the defaults).
        ConnectionProvider pool = ConnectionProvider.builder("loopbench-http").maxConnections(1).build();
        HttpClient client = Tls.secure(tls, client(pool, loops, server)
                .observe((connection, state) -> {
                    if (state == ConnectionObserver.State.RELEASED) {
                        released.run();
                    }
                }));
        return openRequests(pool, client, server, first);
    }

    /** A reactive client whose connections come from {@code pool}: on the loops, with TCP's options, to the server. */
    public static HttpClient client(ConnectionProvider pool, EventLoopGroup loops, InetSocketAddress server) {
        return Tcp.client(HttpClient.create(pool), loops)
                .remoteAddress(() -> server)
                // A request sent twice would be a message sent twice.
                .disableRetry(true);
    }

    /**
     * A reactive client's ends, its protocol and TLS configured by the caller (HTTP/1.1's, HTTP/2's): a first echo
     * request carrying {@code first} opens the pool's one connection, which is returned once the echo is in (the TCP
     * connection, not the HTTP/2 stream the request took); the pool is disposed when that fails, and once the
     * connection closes.
     */
    public static Requests openRequests(ConnectionProvider pool, HttpClient client, InetSocketAddress server,
                                        ByteBuf first) {
        HttpClient.RequestSender echo = client.post().uri(PATH);
        Channel channel;
        try {
            channel = echo.send(Mono.just(first))
                    .responseConnection((response, c) -> response.status().code() == HttpResponseStatus.OK.code()
                            ? c.inbound().receive().then(Mono.just(c.channel()))
                            : Mono.<Channel>error(new IllegalStateException("answered " + response.status())))
                    .next()
                    .block(SETUP_TIMEOUT);
        } catch (RuntimeException e) {
            pool.dispose();
            throw new IllegalStateException("the first request to " + NetUtil.toSocketAddressString(server) + PATH
                    + " failed: " + e.getMessage(), e);
        }
        if (channel == null) {
            pool.dispose();
            throw new IllegalStateException("the first request to " + NetUtil.toSocketAddressString(server) + PATH
                    + " got no echo");
        }
        // HTTP/2's exchange ran on a stream of the connection: the client's connection is the TCP one under it.
        Channel tcp = channel instanceof Http2StreamChannel stream ? stream.parent() : channel;
        // The pool's connection closes only when disposed (or lost); its pool goes with it, so that nothing opens
        // another behind the client's back.
        tcp.closeFuture().addListener(f -> pool.dispose());
        Connection connection = () -> tcp;
        return new Requests(connection, echo);
    }

    /**
     * The decoder's settings: a body may come as one piece as large as any WholeMessages accepts, so that one read
     * whole is handed on without a copy (the default cuts bodies into pieces of 8 KiB, copying every larger message).
     */
    private static HttpDecoderConfig decoder(int payloadBytes) {
        return new HttpDecoderConfig().setMaxChunkSize(WholeMessages.maxBytes(payloadBytes));
    }
}
