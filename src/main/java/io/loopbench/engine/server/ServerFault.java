package io.loopbench.engine.server;

/**
 * A fault injected into the echo server, for tests and drills that prove the measurement right (a known delay
 * must show in the percentiles; a dropped datagram must be counted). Not part of a run specification. Called
 * from every server event-loop thread at once, so implementations must be thread-safe.
 */
public interface ServerFault {

    /** Whether to drop this echo instead of sending it back. */
    default boolean drop() {
        return false;
    }

    /** How long to hold this echo before sending it; the loop stays free meanwhile. */
    default long delayNanos() {
        return 0;
    }

    /** How long to hold this echo of client {@code clientId}'s message (one connection's, on TCP). */
    default long delayNanos(int clientId) {
        return delayNanos();
    }

    /** How long to block the server's event loop before this echo, as a GC pause or a slow handler would. */
    default long stallNanos() {
        return 0;
    }
}
