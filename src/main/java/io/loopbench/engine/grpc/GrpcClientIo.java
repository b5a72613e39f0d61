package io.loopbench.engine.grpc;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.netty.ChannelClientIo;
import io.loopbench.engine.protocol.grpc.Grpc;
import io.loopbench.engine.protocol.grpc.GrpcMethods;
import io.loopbench.engine.spec.GrpcMethod;
import io.netty.buffer.ByteBuf;


/**
 * An {@link EchoClient} on a grpc-java channel, calling {@code loopbench.Echo} on grpc-java's call API as a stub
 * would: {@code unary}, a call per message (started, its message sent, half-closed; its one response the echo), or
 * {@code stream}, one bidirectional call for the client's whole life, each message sent on it and each echo read from
 * it. A call that closes with a status other than OK, or a unary call that closes OK without its response, is counted
 * as no echo (a content error); its message stays in flight. Thread ownership: the channel runs its calls' callbacks
 * on its connection's loop ({@code directExecutor()}), where every other call is made too.
 */
final class GrpcClientIo extends ChannelClientIo {

    private final EchoClient client;
    private final Grpc.GrpcConnection connection;
    /** The stream method's one call; null for unary. */
    private ClientCall<ByteBuf, ByteBuf> stream;

    private GrpcClientIo(EchoClient client, Grpc.GrpcConnection connection) {
        super(connection.channel());
        this.client = client;
        this.connection = connection;
    }

    /** Wires the client to its connected channel; call on the connection's loop. */
    static void attach(EchoClient client, Grpc.GrpcConnection connection, GrpcMethod method) {
        GrpcClientIo io = new GrpcClientIo(client, connection);
        if (method == GrpcMethod.STREAM) {
            io.stream = connection.managed().newCall(GrpcMethods.STREAM, CallOptions.DEFAULT);
            io.stream.start(io.new Echoes("the stream"), new Metadata());
            io.stream.request(Integer.MAX_VALUE);
        }
        connection.channel().closeFuture().addListener(f -> {
            client.disconnected();
            client.released();
        });
        client.attach(io);
    }

    @Override
    public void write(ByteBuf message, byte tag) {
        ClientCall<ByteBuf, ByteBuf> call = stream;
        if (call == null) {
            call = connection.managed().newCall(GrpcMethods.UNARY, CallOptions.DEFAULT);
            call.start(new Echoes("a unary call"), new Metadata());
            call.request(2); // a second response is counted, not left unread
        }
        try {
            call.sendMessage(message); // serialised now: the message is the caller's to release
        } catch (RuntimeException e) {
            client.sendFailed(tag, e);
            return;
        } finally {
            message.release();
        }
        if (stream == null) {
            call.halfClose();
        }
    }

    /** One call's responses: each an echo, and how the call ended. */
    private final class Echoes extends ClientCall.Listener<ByteBuf> {

        private final String what;
        private int responses;

        Echoes(String what) {
            this.what = what;
        }

        @Override
        public void onMessage(ByteBuf message) {
            responses++;
            if (stream == null && responses > 1) {
                client.notAnEcho("a second response on a unary call");
                return;
            }
            client.echoed(message, message.readerIndex(), message.readableBytes());
            client.readComplete();
        }

        @Override
        public void onClose(Status status, Metadata trailers) {
            if (!status.isOk()) {
                client.callFailed(what + " closed with " + status.getCode()
                        + (status.getDescription() == null ? "" : " (" + status.getDescription() + ")"));
            } else if (stream != null) {
                client.callFailed("the stream closed by the server");
            } else if (responses == 0) {
                client.callFailed("a unary call closed OK without a response");
            }
        }
    }

    @Override
    public ByteBuf allocate(int bytes) {
        return channel.alloc().heapBuffer(bytes); // copied into grpc-java's frame from the heap
    }

    @Override
    public void flush() {
        // grpc-java flushes each call's writes once its loop is free
    }
}
