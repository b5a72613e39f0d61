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

    private static void refuse(ServerCall<ByteBuf, ByteBuf> call, String why) {
        call.close(Status.INVALID_ARGUMENT.withDescription(why), new Metadata());
    }

    /** One unary call: its one message, echoed once the client has half-closed. */
    private static final class Unary extends ServerCall.Listener<ByteBuf> {

        private final ServerCall<ByteBuf, ByteBuf> call;
        private final Predicate<ByteBuf> accept;
        private ByteBuf message;
        private boolean closed;

        Unary(ServerCall<ByteBuf, ByteBuf> call, Predicate<ByteBuf> accept) {
            this.call = call;
            this.accept = accept;
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
                closed = true;
                refuse(call, "a unary call carries one message");
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
                refuse(call, "a unary call without a message");
                return;
            }
            try {
                if (!accept.test(m)) {
                    refuse(call, "not a loopbench message the server accepts");
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
    private static final class Stream extends ServerCall.Listener<ByteBuf> {

        private final ServerCall<ByteBuf, ByteBuf> call;
        private final Predicate<ByteBuf> accept;
        private boolean headersSent;
        private boolean closed;

        Stream(ServerCall<ByteBuf, ByteBuf> call, Predicate<ByteBuf> accept) {
            this.call = call;
            this.accept = accept;
            call.request(1);
        }

        @Override
        public void onMessage(ByteBuf m) {
            try {
                if (closed) {
                    return;
                }
                if (!accept.test(m)) {
                    closed = true;
                    refuse(call, "not a loopbench message the server accepts");
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
