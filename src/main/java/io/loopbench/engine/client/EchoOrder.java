package io.loopbench.engine.client;

/**
 * The order a client's echoes must come back in, which its window checks: what the protocol promises, no more.
 */
public enum EchoOrder {

    /** Each echo is the next sequence: one byte stream, or one connection's messages answered in turn. */
    SENT,
    /** Each echo is above every sequence seen: datagrams, which may be lost but are counted when overtaken. */
    RISING,
    /**
     * Any order, each echo matched to its message by sequence: messages that are independent streams of one
     * connection (HTTP/2's streams, gRPC's unary calls), which RFC 9113 lets complete in any order, none lost.
     */
    ANY
}
