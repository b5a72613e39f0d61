package io.loopbench.engine.protocol.grpc;

import io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.InternalProtocolNegotiator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AsciiString;

import java.util.function.Consumer;

/**
 * grpc-java's server-side negotiator (plaintext or TLS), with a first step that hands each accepted connection's
 * channel to {@code accepted} before anything is read, then steps aside. grpc-java keeps its connections to itself;
 * this is the one place it lets a caller see them, through its {@code Internal*} extension API, so that a gRPC pair
 * is recorded (its ends' loops, their TCP_NODELAY, their close) as every other protocol's. Thread-safe if
 * {@code accepted} is; each handler it makes runs on its channel's loop.
 */
final class RecordingNegotiator implements InternalProtocolNegotiator.ProtocolNegotiator {

    private final InternalProtocolNegotiator.ProtocolNegotiator negotiator;
    private final Consumer<Channel> accepted;

    RecordingNegotiator(InternalProtocolNegotiator.ProtocolNegotiator negotiator, Consumer<Channel> accepted) {
        this.negotiator = negotiator;
        this.accepted = accepted;
    }

    @Override
    public AsciiString scheme() {
        return negotiator.scheme();
    }

    @Override
    public ChannelHandler newHandler(GrpcHttp2ConnectionHandler grpcHandler) {
        ChannelHandler next = negotiator.newHandler(grpcHandler);
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                accepted.accept(ctx.channel());
                ctx.pipeline().replace(this, null, next);
            }
        };
    }

    @Override
    public void close() {
        negotiator.close();
    }
}
