package io.loopbench.engine.reactive;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.EchoOrder;
import io.loopbench.engine.netty.NettyEnds;
import io.loopbench.engine.offload.OffloadPool;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.ReactiveProtocol;
import io.loopbench.engine.protocol.ReactiveRequests;
import io.loopbench.engine.server.ReactiveEcho;
import io.loopbench.engine.server.ServerCheck;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;

import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * {@code reactive} execution: every end is a Reactor Netty pipeline — a {@link ReactiveEcho} on the server, a
 * {@link ReactiveClientIo} on the client — on the same loops as the {@code netty} execution. A protocol that has
 * Reactor Netty ends of its own is bound and connected through them, each end served by their handlers: per
 * connection ({@link ReactiveProtocol}: WebSocket's HttpServer and HttpClient) or per request
 * ({@link ReactiveRequests}: HTTP's and HTTP/2's, whose clients take their echoes in any order); any other is bound
 * and connected as the netty execution binds it, each end programmed once configured. Immutable.
 *
 * @param stream whether the protocol is a byte stream, whose messages are cut into frames (see EchoProtocol)
 * @param offload where the server's work runs
 */
public record ReactiveEnds(int payloadBytes, boolean stream, ServerCheck check, OffloadPool offload)
        implements NettyEnds {

    /** Ends whose server works on the loop. */
    public ReactiveEnds(int payloadBytes, boolean stream, ServerCheck check) {
        this(payloadBytes, stream, check, OffloadPool.none());
    }

    @Override
    public void server(Connection end) {
        ReactiveEcho.serve(end, stream, payloadBytes, check, offload);
    }

    @Override
    public void client(EchoClient client, Connection connection) {
        ReactiveClientIo.attach(client, connection, stream);
    }

    /** Reactor Netty's HTTP/2 client promises no order among a connection's streams (RFC 9113 none either). */
    @Override
    public EchoOrder order(EchoProtocol protocol) {
        return protocol instanceof ReactiveRequests http && http.multiplexed() ? EchoOrder.ANY
                : NettyEnds.super.order(protocol);
    }

    @Override
    public DisposableChannel bind(EchoProtocol protocol, EventLoopGroup loops, InetSocketAddress address,
                                  int payloadBytes, ChannelGroup accepted, Consumer<Connection> served) {
        if (protocol instanceof ReactiveRequests http) {
            return http.bindRequests(loops, address, payloadBytes, accepted, served,
                    (request, response) -> ReactiveEcho.http(request, response, check, offload), check::refused);
        }
        if (!(protocol instanceof ReactiveProtocol own)) {
            return NettyEnds.super.bind(protocol, loops, address, payloadBytes, accepted, served);
        }
        // WebSocket is the one ReactiveProtocol: its exchanges carry one message per frame.
        return own.bindReactive(loops, address, payloadBytes, accepted, end -> {
            served.accept(end);
            return ReactiveEcho.webSocket(end, check, offload);
        });
    }

    @Override
    public Connection connect(EchoProtocol protocol, EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                              EchoClient client) {
        if (protocol instanceof ReactiveRequests http) {
            return ReactiveClientIo.http(client, http, loops, server, payloadBytes);
        }
        if (!(protocol instanceof ReactiveProtocol own)) {
            return NettyEnds.super.connect(protocol, loops, server, payloadBytes, client);
        }
        return own.connectReactive(loops, server, payloadBytes, c -> ReactiveClientIo.webSocket(client, c));
    }
}
