package io.loopbench.engine.spec;

/**
 * Which {@code loopbench.Echo} method a {@code grpc} client calls, the spec's {@code grpcMethod}: {@code unary}, one
 * call per message, up to {@code window} calls at once on the client's connection, completing in any order;
 * {@code stream}, one bidirectional stream per client carrying its window of messages, echoed in order.
 */
public enum GrpcMethod implements Labeled {
    UNARY, STREAM
}
