package io.loopbench.engine.grpc;

import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.server.ServerFault;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;

import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link ServerFault} injected into the echo service's replies, as the netty ends inject it into their writes: each
 * reply stalls its thread first, is dropped (its call then left open, never answered), or is held for the fault's
 * delay on its connection's loop, which stays free meanwhile — the call's later replies and its close held as long,
 * in order. For tests and drills that prove the measurement right; with calls on the loop ({@code directExecutor()}),
 * so that a held reply runs on the thread that runs its call. Thread-safe: the loops are found by the connections'
 * remote addresses, recorded as they are accepted.
 */
final class FaultyReplies implements ServerInterceptor {

    private final ServerFault fault;
    private final Map<SocketAddress, Channel> connections;

    /** @param connections each accepted connection by its remote address */
    FaultyReplies(ServerFault fault, Map<SocketAddress, Channel> connections) {
        this.fault = fault;
        this.connections = connections;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        Channel connection = connections.get(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
                next.startCall(new Held<>(call, connection.eventLoop()), headers)) {
        };
    }

    /** One call whose replies the fault stalls, drops or holds. */
    private final class Held<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {

        private final EventLoop loop;
        /** Until when the call's last reply is held: a later one is held as long, so that they stay in order. */
        private long heldUntil;
        /** The held replies, each with when it is due, in the order they were made. */
        private final ArrayDeque<Object[]> held = new ArrayDeque<>();
        private boolean dropped;

        Held(ServerCall<Q, R> call, EventLoop loop) {
            super(call);
            this.loop = loop;
        }

        @Override
        public void sendMessage(R message) {
            long stallUntil = System.nanoTime() + fault.stallNanos();
            while (stallUntil - System.nanoTime() > 0) {
                LockSupport.parkNanos(stallUntil - System.nanoTime());
            }
            if (fault.drop()) {
                dropped = true;
                return;
            }
            ByteBuf m = (ByteBuf) message;
            long delay = fault.delayNanos(MessageFormat.clientId(m, m.readerIndex()));
            if (delay <= 0 && heldUntil - System.nanoTime() <= 0) {
                super.sendMessage(message);
                return;
            }
            m.retain(); // the service releases its message once sendMessage returns
            hold(delay, () -> {
                try {
                    super.sendMessage(message);
                } finally {
                    m.release();
                }
            });
        }

        @Override
        public void close(Status status, Metadata trailers) {
            if (dropped) {
                return; // a dropped reply's call is never answered
            }
            if (heldUntil - System.nanoTime() > 0) {
                hold(0, () -> super.close(status, trailers));
            } else {
                super.close(status, trailers);
            }
        }

        /**
         * Holds a reply until {@code delayNanos} from now, or until the reply before it is due if later; each due time
         * runs every reply then due, oldest first (two replies due at once must not race their timers).
         */
        private void hold(long delayNanos, Runnable reply) {
            long at = Math.max(System.nanoTime() + delayNanos, heldUntil);
            heldUntil = at;
            held.add(new Object[] {at, reply});
            loop.schedule(this::due, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
        }

        private void due() {
            while (!held.isEmpty() && (long) held.peek()[0] - System.nanoTime() <= 0) {
                ((Runnable) held.poll()[1]).run();
            }
        }
    }
}
