package io.loopbench.engine.netty;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.MessageFraming;
import io.loopbench.engine.server.EchoServerHandler;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerFault;
import reactor.netty.Connection;

import java.net.InetSocketAddress;

/**
 * {@code netty} execution: every end is one handler at the end of its pipeline — an {@link EchoServerHandler} on the
 * server, an {@link EchoClientHandler} on the client — with the protocol's framing for that connection, if it has
 * one. Immutable.
 *
 * @param fault    injected into every server end; null for none
 * @param protocol the protocol both ends speak, asked for each connection's framing (see EchoProtocol#framing)
 */
public record HandlerEnds(int payloadBytes, ServerCheck check, ServerFault fault, EchoProtocol protocol)
        implements NettyEnds {

    @Override
    public void server(Connection end) {
        MessageFraming framing = protocol.framing((InetSocketAddress) end.channel().localAddress(), payloadBytes);
        end.addHandlerLast("echo", new EchoServerHandler(payloadBytes, check, fault, framing));
    }

    @Override
    public void client(EchoClient client, Connection connection) {
        MessageFraming framing = protocol.framing((InetSocketAddress) connection.channel().remoteAddress(),
                payloadBytes);
        connection.addHandlerLast("echo", new EchoClientHandler(client, framing));
    }
}
