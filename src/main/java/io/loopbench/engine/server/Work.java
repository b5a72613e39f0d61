package io.loopbench.engine.server;

/**
 * arknet's synthetic per-message CPU work: {@code iterations} rounds of 64-bit xorshift seeded from the message's
 * last byte + 1. The result is returned and, in the (practically never taken) case that it is zero, written to a
 * volatile sink: the JIT cannot drop the loop, and threads do not contend on a shared cache line per message.
 * Stateless; safe on any thread.
 */
public final class Work {

    @SuppressWarnings("unused") // gives the loop an observable effect
    private static volatile long sink;

    private Work() {
    }

    public static long run(int iterations, byte lastByte) {
        long v = (lastByte & 0xFF) + 1L;
        for (int i = 0; i < iterations; i++) {
            v ^= v << 13;
            v ^= v >>> 7;
            v ^= v << 17;
        }
        if (v == 0) {
            sink = v;
        }
        return v;
    }
}
