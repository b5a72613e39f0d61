package io.loopbench.engine.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import org.reactivestreams.Publisher;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.net.InetSocketAddress;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * What a protocol implements, besides {@link EchoProtocol}, when its {@code reactive} ends are Reactor Netty's own HTTP
 * server and client and each message is one request of theirs ({@code POST /echo}), as an application would use
 * them: the server's handler gets each echo request, the client sends each message as a request of its own and gets
 * its response. Unlike {@link ReactiveProtocol}'s, whose exchange is a whole connection, an exchange here is one
 * request. Over HTTP/1.1 Reactor Netty's {@code HttpClient} sends one at a time per connection, so such a client has
 * one message in flight (window 1: see {@code spec.Protocol#pipelinesOn}); over HTTP/2 each request is a stream of
 * its own, sent at once, up to a window of them concurrent on the connection ({@link #multiplexed}).
 *
 * <p>The ends keep {@link EchoProtocol}'s rules: the given loops (never Reactor Netty's global resources), its socket
 * options, every accepted connection in {@code accepted}, and a client handed over only once its connection is open.
 * A client's connection comes from a pool of its own holding one connection, kept alive across its requests and
 * disposed with the connection.
 *
 * <p>Threads: as {@link EchoProtocol}; handlers and callbacks run on their connection's event loop.
 */
public interface ReactiveRequests {

    /**
     * Binds an echo server on Netty loops whose every echo request is served by {@code echo}; another request is
     * answered by the protocol (another path 404, another method 405) and reported to {@code refused} in words.
     *
     * @param served gets each accepted connection (its TCP connection, not an HTTP/2 stream) on its loop once
     *               configured, before it reads
     */
    DisposableChannel bindRequests(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                   ChannelGroup accepted, Consumer<Connection> served,
                                   BiFunction<? super HttpServerRequest, ? super HttpServerResponse,
                                           ? extends Publisher<Void>> echo,
                                   Consumer<String> refused);

    /**
     * Connects one client on Netty loops: opens its connection with a first echo request carrying {@code first} (the
     * pool opens a connection only for a request), so that no message's round trip includes the set-up, and returns it
     * once that request's echo is in.
     *
     * @param first    a message the server echoes, taken over
     * @param released called on the connection's loop each time a request's exchange is over and its connection back in
     *                 the pool, free for the next request; never where requests are concurrent streams
     *                 ({@link #multiplexed}), which need not wait for it
     * @throws IllegalStateException when the first request is not echoed within {@link EchoProtocol#SETUP_TIMEOUT}
     */
    Requests connectRequests(EventLoopGroup loops, InetSocketAddress server, int payloadBytes, ByteBuf first,
                             Runnable released);

    /**
     * Whether each request is a stream of its own on the connection (HTTP/2), sent at once and concurrent with the
     * others, rather than one request at a time (HTTP/1.1). Such streams may complete in any order.
     */
    boolean multiplexed();

    /**
     * One client's ends: its connection — the TCP connection, not an HTTP/2 stream; disposing it closes the
     * connection and disposes its pool — and the echo request, which sends a message as its body on that connection,
     * with {@code Content-Length}, each time what its {@code send} and response handlers make of it is subscribed to.
     */
    record Requests(Connection connection, HttpClient.RequestSender echo) {
    }
}
