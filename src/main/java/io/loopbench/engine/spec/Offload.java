package io.loopbench.engine.spec;

import java.util.Locale;

/**
 * Where the server runs each message's work ({@code work} and {@code blockingMicros}), the spec's {@code offload}:
 * {@code loop} on the connection's event loop, as arknet does; {@code executor} on a pool of {@code offloadThreads}
 * threads — with the netty execution a Netty {@code DefaultEventExecutorGroup} in the pipeline (each connection pinned
 * to one of its threads, so ordered per connection as Netty's is), with reactive a Reactor {@code boundedElastic}
 * scheduler of at most that many threads behind {@code publishOn}; {@code virtual-threads} one virtual thread per
 * message (netty), or a {@code publishOn} scheduler over a virtual-thread-per-task executor (reactive), replies written
 * back on the connection's loop in the order the messages came. With {@code grpc}, each is where grpc-java runs its calls:
 * {@code loop} is its {@code directExecutor()}, {@code executor} and {@code virtual-threads} the executor it is given,
 * and {@code grpc-default} its own default.
 */
public enum Offload implements Labeled {
    LOOP, EXECUTOR, VIRTUAL_THREADS,
    /** grpc-java's own default executor (its shared cached pool of {@code grpc-default-executor} threads): grpc only. */
    GRPC_DEFAULT;

    @Override
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
