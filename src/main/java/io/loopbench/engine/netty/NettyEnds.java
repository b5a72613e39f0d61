package io.loopbench.engine.netty;

import io.loopbench.engine.client.EchoClient;
import reactor.netty.Connection;

/**
 * How an execution on Netty loops programs the two ends of a {@link NettyEchoPair}: what each server end and each
 * client connection get once configured. Called on the end's event loop, before it reads.
 */
public interface NettyEnds {

    /** A server end: an accepted connection, or the one datagram socket. */
    void server(Connection end);

    /** A client's connection, once connected: attaches the client to it. */
    void client(EchoClient client, Connection connection);
}
