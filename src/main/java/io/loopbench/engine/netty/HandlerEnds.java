package io.loopbench.engine.netty;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.offload.HandOff;
import io.loopbench.engine.offload.OffloadPool;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.MessageFraming;
import io.loopbench.engine.server.EchoServerHandler;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerFault;
import io.netty.util.concurrent.EventExecutorGroup;
import reactor.netty.Connection;

import java.net.InetSocketAddress;

/**
 * {@code netty} execution: every end is one handler at the end of its pipeline — an {@link EchoServerHandler} on the
 * server, an {@link EchoClientHandler} on the client — with the protocol's framing for that connection, if it has
 * one. With an executor offload the server's handler runs on the pool's executor group (Netty pins each channel's
 * handler to one of its executors), behind a {@link HandOff} on the loop that counts what it passes. Immutable.
 *
 * @param fault    injected into every server end; null for none
 * @param protocol the protocol both ends speak, asked for each connection's framing (see EchoProtocol#framing)
 * @param offload  where the server's work runs
 */
public record HandlerEnds(int payloadBytes, ServerCheck check, ServerFault fault, EchoProtocol protocol,
                          OffloadPool offload) implements NettyEnds {

    /** Ends whose server works on the loop. */
    public HandlerEnds(int payloadBytes, ServerCheck check, ServerFault fault, EchoProtocol protocol) {
        this(payloadBytes, check, fault, protocol, OffloadPool.none());
    }

    @Override
    public void server(Connection end) {
        MessageFraming framing = protocol.framing((InetSocketAddress) end.channel().localAddress(), payloadBytes);
        EventExecutorGroup group = offload.group();
        if (group == null) {
            end.addHandlerLast("echo", new EchoServerHandler(payloadBytes, check, fault, framing,
                    offload.virtualThreads(), null));
            return;
        }
        end.addHandlerLast("handOff", new HandOff(check.gauge()));
        end.channel().pipeline().addAfter(group, "handOff", "echo",
                new EchoServerHandler(payloadBytes, check, fault, framing, null, check.gauge()));
    }

    @Override
    public void client(EchoClient client, Connection connection) {
        MessageFraming framing = protocol.framing((InetSocketAddress) connection.channel().remoteAddress(),
                payloadBytes);
        connection.addHandlerLast("echo", new EchoClientHandler(client, framing));
    }
}
