package io.loopbench.engine.spec;

import io.loopbench.engine.loop.Transports;

/**
 * IO transport: a Netty transport, or {@code jdk} (the JDK's own sockets, which only virtual-threads execution
 * uses). {@code auto} resolves to the fastest native Netty transport available here (see {@link Transports}), or to
 * {@code jdk} under virtual-threads execution.
 */
public enum Transport implements Labeled {
    AUTO, NIO, EPOLL, IO_URING, JDK
}
