package io.loopbench.engine.spec;

/**
 * The measured transport protocol; {@code tcps} is TLS over TCP, with TCP's framing; {@code websocket} carries one
 * binary WebSocket frame per message over TCP (upgraded on {@code /echo}), {@code wss} the same over TLS;
 * {@code http} makes each message one HTTP/1.1 {@code POST /echo} request, answered 200 with the same body, up to
 * {@code window} of them pipelined on one keep-alive connection per client (so a message's RTT includes its wait
 * behind the responses before it, as in arknet), {@code https} the same over TLS. Netty's codec handlers carry HTTP on
 * the netty execution; Reactor Netty's {@code HttpServer} and {@code HttpClient} on the reactive one, whose client
 * sends one request at a time per connection (window 1). {@code h2c} is HTTP/2 over cleartext TCP (prior knowledge):
 * each message one {@code POST /echo} stream, up to {@code window} concurrent streams on one connection per client;
 * Netty's frame codec carries it on the netty execution, Reactor Netty's {@code HttpServer} and {@code HttpClient} on
 * the reactive one; {@code h2} the same over TLS, agreed by ALPN. {@code grpc} is gRPC on grpc-java's Netty transport
 * (plaintext HTTP/2): each message one {@code loopbench.Echo} message, a unary call each or all on one bidirectional
 * stream per client ({@code grpcMethod}), on the netty execution's loops; {@code grpcs} the same over TLS.
 */
public enum Protocol implements Labeled {
    TCP, UDP, TCPS, WEBSOCKET, WSS, HTTP, HTTPS, H2C, H2, GRPC, GRPCS;

    /** arknet's seven, which a matrix sweeps by default (the others are loopbench's own, asked for by name). */
    public static final java.util.List<Protocol> ARKNET = java.util.List.of(TCP, UDP, TCPS, WEBSOCKET, WSS, HTTP, HTTPS);

    /** Whether it runs over TLS (tcps, wss, https): it then takes certsDirectory and tlsProvider. */
    public boolean secure() {
        return this == TCPS || this == WSS || this == HTTPS || this == H2 || this == GRPCS;
    }

    /** Whether it is gRPC, plaintext or over TLS: grpc-java's ends, its method and its executors. */
    public boolean grpc() {
        return this == GRPC || this == GRPCS;
    }

    /**
     * Whether each message travels as one protocol object (a WebSocket frame, an HTTP request and its response), so
     * that an echo server must know the message size to answer it: it cannot echo bytes verbatim.
     */
    public boolean framed() {
        return this == WEBSOCKET || this == WSS || this == HTTP || this == HTTPS || this == H2C || this == H2;
    }

    /**
     * Whether this protocol's ends are built for the execution: WebSocket's, HTTP's and HTTP/2's on Netty loops (netty
     * and reactive), not virtual threads.
     */
    public boolean runsOn(Execution execution) {
        return switch (this) {
            case TCP, UDP, TCPS -> true;
            case WEBSOCKET, WSS, HTTP, HTTPS, H2C, H2 -> execution != Execution.VIRTUAL_THREADS;
            case GRPC, GRPCS -> execution == Execution.NETTY;
        };
    }

    /**
     * Whether a client of this protocol may have more than one message in flight (a {@code window} above 1) on the
     * execution: all but HTTP's on reactive, whose Reactor Netty {@code HttpClient} sends one request at a time per
     * connection and never pipelines.
     */
    public boolean pipelinesOn(Execution execution) {
        return !(execution == Execution.REACTIVE && (this == HTTP || this == HTTPS));
    }
}
