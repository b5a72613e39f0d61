package io.loopbench.engine.protocol;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import org.reactivestreams.Publisher;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;

import java.net.InetSocketAddress;
import java.util.function.Function;

/**
 * What a protocol implements, besides {@link EchoProtocol}, when its {@code reactive} ends are Reactor Netty's own
 * server and client for it, as an application would use them — WebSocket's are {@code HttpServer} routing its path
 * to a WebSocket handler and {@code HttpClient.websocket()} — rather than its Netty ends with a Reactor Netty
 * pipeline added to each connection. The reactive execution asks a protocol for it, or for
 * {@link ReactiveRequests} (HTTP, whose exchanges are requests), and binds and connects through {@link EchoProtocol}
 * when it has neither (tcp, udp, tcps).
 *
 * <p>Each end is served as Reactor Netty serves an application: a handler gets an exchange's {@link Connection},
 * whose inbound and outbound carry the protocol's messages (WebSocket: its frames, once upgraded), and returns the
 * publisher whose end ends the exchange. The ends keep {@link EchoProtocol}'s rules: the given loops (never Reactor
 * Netty's global resources), its socket options, every accepted connection in {@code accepted}, never-pooled client
 * connections, and a client handed over only once it is ready for messages.
 *
 * <p>Threads: as {@link EchoProtocol}; handlers run on their connection's event loop.
 */
public interface ReactiveProtocol {

    /**
     * Binds an echo server on Netty loops whose every exchange (WebSocket: each upgraded connection) is served by
     * {@code handler}.
     *
     * @param payloadBytes the largest message the server expects
     * @param accepted     every accepted connection joins it, so that the server's owner can close them
     */
    DisposableChannel bindReactive(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                   ChannelGroup accepted,
                                   Function<? super Connection, ? extends Publisher<Void>> handler);

    /**
     * Connects one client on Netty loops and returns its connection once {@code handler} has got it, on its loop, ready
     * for messages (WebSocket: upgraded), so that no message's round trip includes the set-up.
     *
     * @throws IllegalStateException when the connection is not ready within {@link EchoProtocol#SETUP_TIMEOUT}
     */
    Connection connectReactive(EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                               Function<? super Connection, ? extends Publisher<Void>> handler);
}
