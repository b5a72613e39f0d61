package io.loopbench.engine;

/** Netty IO transport; {@code auto} resolves to the fastest native transport available here (see {@link Transports}). */
public enum Transport implements Labeled {
    AUTO, NIO, EPOLL, IO_URING
}
