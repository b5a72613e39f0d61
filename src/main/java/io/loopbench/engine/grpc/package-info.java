/**
 * The {@code grpc} protocol's ends on Netty loops: grpc-java's server with the checked echo service, its calls run
 * where the spec's {@code offload} says, and a client per grpc-java channel whose calls are made and answered on its
 * connection's loop.
 */
package io.loopbench.engine.grpc;
