package io.loopbench.engine.netty;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.server.EchoServerHandler;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerFault;
import reactor.netty.Connection;

/**
 * {@code netty} execution: every end is one handler at the end of its pipeline — an {@link EchoServerHandler} on the
 * server, an {@link EchoClientHandler} on the client. Immutable.
 *
 * @param fault  injected into every server end; null for none
 * @param framed whether the protocol carries one message per frame (see EchoProtocol#framed)
 */
public record HandlerEnds(int payloadBytes, ServerCheck check, ServerFault fault, boolean framed)
        implements NettyEnds {

    @Override
    public void server(Connection end) {
        end.addHandlerLast("echo", new EchoServerHandler(payloadBytes, check, fault));
    }

    @Override
    public void client(EchoClient client, Connection connection) {
        connection.addHandlerLast("echo", new EchoClientHandler(client, framed));
    }
}
