package io.loopbench.engine.reactive;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.netty.NettyEnds;
import io.loopbench.engine.server.ReactiveEcho;
import io.loopbench.engine.server.ServerCheck;
import reactor.netty.Connection;

/**
 * {@code reactive} execution: every end is a Reactor Netty pipeline — a {@link ReactiveEcho} on the server, a
 * {@link ReactiveClientIo} on the client — on the same loops as the {@code netty} execution. Immutable.
 *
 * @param stream whether the protocol is a byte stream, whose messages are cut into frames (see EchoProtocol)
 */
public record ReactiveEnds(int payloadBytes, boolean stream, ServerCheck check) implements NettyEnds {

    @Override
    public void server(Connection end) {
        ReactiveEcho.serve(end, stream, payloadBytes, check);
    }

    @Override
    public void client(EchoClient client, Connection connection) {
        ReactiveClientIo.attach(client, connection, stream);
    }
}
