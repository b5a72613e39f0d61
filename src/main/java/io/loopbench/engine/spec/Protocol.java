package io.loopbench.engine.spec;

/**
 * The measured transport protocol; {@code tcps} is TLS over TCP, with TCP's framing; {@code websocket} carries one
 * binary WebSocket frame per message over TCP (upgraded on {@code /echo}), {@code wss} the same over TLS.
 */
public enum Protocol implements Labeled {
    TCP, UDP, TCPS, WEBSOCKET, WSS;

    /** Whether this protocol's ends are built for the execution: WebSocket's on Netty loops, not virtual threads. */
    public boolean runsOn(Execution execution) {
        return !(this == WEBSOCKET || this == WSS) || execution != Execution.VIRTUAL_THREADS;
    }
}
