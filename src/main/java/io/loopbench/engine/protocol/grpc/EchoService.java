package io.loopbench.engine.protocol.grpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.netty.buffer.ByteBuf;

import java.util.function.Predicate;

/**
 * The {@code loopbench.Echo} service: each message it is sent, once {@code accept} passes it, goes back — a unary
 * call's as its one response, a stream's on the same stream, in order. A message {@code accept} refuses (malformed, or
 * the server's check says no) fails its call with {@code INVALID_ARGUMENT}, so that the client counts it as no echo.
 * Written on grpc-java's call API, with no stub: a message costs what grpc's transport and call cost, no more.
 *
 * <p>Threads: grpc-java calls each call's listener on the server's executor, one callback at a time per call; the
 * listeners keep their state unshared.
 */
public final class EchoService {

    private EchoService() {
    }

    /**
     * The service, each message checked by {@code accept} (which runs the server's work, on the executor's thread)
     * before it is echoed.
     */
    public static ServerServiceDefinition of(Predicate<ByteBuf> accept) {
        return ServerServiceDefinition.builder(GrpcMethods.SERVICE)
                .addMethod(GrpcMethods.UNARY, (call, headers) -> new Unary(call, accept))
                .addMethod(GrpcMethods.STREAM, (call, headers) -> new Stream(call, accept))
                .build();
    }

    /** One call of either method: what it echoes on, what checks its messages, and whether it is closed. */
    private abstract static class Echo extends ServerCall.Listener<ByteBuf> {

        final ServerCall<ByteBuf, ByteBuf> call;
        final Predicate<ByteBuf> accept;
        boolean closed;

        Echo(ServerCall<ByteBuf, ByteBuf> call, Predicate<ByteBuf> accept) {
            this.call = call;
            this.accept = accept;
        }

        /** Closes the call {@code INVALID_ARGUMENT}: the client counts it as no echo. */
        void refuse(String why) {
            closed = true;
            call.close(Status.INVALID_ARGUMENT.withDescription(why), new Metadata());
        }
    }

    /** One unary call: its one message, echoed once the client has half-closed. */
    private static final class Unary extends Echo {

        private ByteBuf message;

        Unary(ServerCall<ByteBuf, ByteBuf> call, Predicate<ByteBuf> accept) {
            super(call, accept);
            call.request(2); // a second message is a client's error, to be answered, not left unread
        }

        @Override
        public void onMessage(ByteBuf m) {
            if (closed) {
                m.release();
            } else if (message != null) {
                m.release();
                message.release();
                message = null;
                refuse("a unary call carries one message");
            } else {
                message = m;
            }
        }

        @Override
        public void onHalfClose() {
            if (closed) {
                return;
            }
            closed = true;
            ByteBuf m = message;
            message = null;
            if (m == null) {
                refuse("a unary call without a message");
                return;
            }
            try {
                if (!accept.test(m)) {
                    refuse("not a loopbench message the server accepts");
                    return;
                }
                call.sendHeaders(new Metadata());
                call.sendMessage(m);
                call.close(Status.OK, new Metadata());
            } finally {
                m.release();
            }
        }

        @Override
        public void onCancel() {
            if (message != null) {
                message.release();
                message = null;
            }
        }
    }

    /** One bidirectional stream: each message echoed on it as it comes, in order. */
    private static final class Stream extends Echo {

        private boolean headersSent;

        Stream(ServerCall<ByteBuf, ByteBuf> call, Predicate<ByteBuf> accept) {
            super(call, accept);
            call.request(1);
        }

        @Override
        public void onMessage(ByteBuf m) {
            try {
                if (closed) {
                    return;
                }
                if (!accept.test(m)) {
                    refuse("not a loopbench message the server accepts");
                    return;
                }
                if (!headersSent) {
                    headersSent = true;
                    call.sendHeaders(new Metadata());
                }
                call.sendMessage(m);
                call.request(1);
            } finally {
                m.release();
            }
        }

        @Override
        public void onHalfClose() {
            if (!closed) {
                closed = true;
                call.close(Status.OK, new Metadata());
            }
        }
    }
}
