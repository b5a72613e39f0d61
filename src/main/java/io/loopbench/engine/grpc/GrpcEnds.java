package io.loopbench.engine.grpc;

import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.EchoOrder;
import io.loopbench.engine.netty.NettyEnds;
import io.loopbench.engine.offload.OffloadGauge;
import io.loopbench.engine.offload.OffloadPool;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.grpc.EchoService;
import io.loopbench.engine.protocol.grpc.Grpc;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerFault;
import io.loopbench.engine.spec.GrpcMethod;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * {@code grpc}'s ends on the netty execution's loops: grpc-java's server with the echo service, each message passed
 * by the server's check (which runs its work) before it is echoed, its calls run where the offload says —
 * {@code directExecutor()} on the loop, the offload pool's executor or virtual threads, or grpc-java's default — and a
 * {@link GrpcClientIo} per client on its channel's loop. An executor is wrapped to count each task handed to it and
 * taken, as the netty execution's hand-off counts a read. A test's {@link ServerFault} is injected into the replies
 * ({@link FaultyReplies}). Immutable.
 *
 * @param fault injected into every reply; null for none
 */
public record GrpcEnds(Grpc grpc, ServerCheck check, ServerFault fault, OffloadPool offload) implements NettyEnds {

    /** A gRPC server's connection needs nothing added: grpc-java's pipeline and the service answer every call. */
    @Override
    public void server(Connection end) {
    }

    @Override
    public void client(EchoClient client, Connection connection) {
        GrpcClientIo.attach(client, (Grpc.GrpcConnection) connection, grpc.method());
    }

    /** Unary calls complete in any order (each its own stream); a stream's messages come back in the order sent. */
    @Override
    public EchoOrder order(EchoProtocol protocol) {
        return grpc.method() == GrpcMethod.STREAM ? EchoOrder.SENT : EchoOrder.ANY;
    }

    @Override
    public DisposableChannel bind(EchoProtocol protocol, EventLoopGroup loops, InetSocketAddress address,
                                  int payloadBytes, ChannelGroup accepted, Consumer<Connection> served) {
        ServerServiceDefinition service = EchoService.of(check::accept);
        if (fault == null) {
            return grpc.bind(loops, address, accepted, served, service, this::calls);
        }
        Map<SocketAddress, Channel> connections = new ConcurrentHashMap<>();
        return grpc.bind(loops, address, accepted, end -> {
            connections.put(end.channel().remoteAddress(), end.channel());
            served.accept(end);
        }, ServerInterceptors.intercept(service, new FaultyReplies(fault, connections)), this::calls);
    }

    private void calls(NettyServerBuilder builder) {
        switch (offload.offload()) {
            case LOOP -> builder.directExecutor();
            case EXECUTOR -> builder.executor(counted(offload.group()));
            case VIRTUAL_THREADS -> builder.executor(counted(offload.virtualThreads()));
            case GRPC_DEFAULT -> builder.executor(counted(offload.grpcDefault()));
        }
    }

    private Executor counted(Executor executor) {
        OffloadGauge gauge = check.gauge();
        return task -> {
            gauge.handed();
            executor.execute(() -> {
                gauge.taken();
                task.run();
            });
        };
    }
}
