/**
 * gRPC ({@code grpc}): grpc-java's server and channel on Netty ({@code grpc-netty}), on the benchmark's own loops
 * and channel type; each message one {@code loopbench.Echo} call's message, unary or on one bidirectional stream.
 */
package io.loopbench.engine.protocol.grpc;
