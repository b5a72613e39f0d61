package io.loopbench.engine.netty;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.EchoOrder;
import io.loopbench.engine.protocol.EchoProtocol;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;

import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * How an execution on Netty loops programs the two ends of a {@link NettyEchoPair}: what each server end and each
 * client connection get once configured, called on the end's event loop before it reads; and how its servers are
 * bound and its clients connected — through the protocol's {@link EchoProtocol} ends unless the execution has ends
 * of its own for the protocol. Called by the pair's thread.
 */
public interface NettyEnds {

    /** A server end: an accepted connection, or the one datagram socket. */
    void server(Connection end);

    /** A client's connection, once connected: attaches the client to it. */
    void client(EchoClient client, Connection connection);

    /**
     * The order a client's echoes come back in on these ends: a stream's in the order sent (Netty's HTTP/2 ends keep
     * their streams in order too), datagrams rising.
     */
    default EchoOrder order(EchoProtocol protocol) {
        return protocol.stream() ? EchoOrder.SENT : EchoOrder.RISING;
    }

    /**
     * Binds one echo server whose every end is programmed by {@link #server} and then handed to {@code served}, on its
     * loop, for the pair's records.
     */
    default DisposableChannel bind(EchoProtocol protocol, EventLoopGroup loops, InetSocketAddress address,
                                   int payloadBytes, ChannelGroup accepted, Consumer<Connection> served) {
        return protocol.bind(loops, address, payloadBytes, accepted, end -> {
            server(end);
            served.accept(end);
        });
    }

    /** Connects one client, attached by {@link #client} once connected. */
    default Connection connect(EchoProtocol protocol, EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                               EchoClient client) {
        return protocol.connect(loops, server, payloadBytes, c -> client(client, c));
    }
}
