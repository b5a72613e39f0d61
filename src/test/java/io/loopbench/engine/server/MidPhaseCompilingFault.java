package io.loopbench.engine.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A server fault that holds nothing but, from {@link #from} on (a {@link System#nanoTime} instant), makes every echo run
 * code nothing has run before: six small methods called in a loop, each hot enough for its own C2 compilation, and the
 * loop for an OSR one, in the middle of whatever phase is running — more than the few late compilations a steady phase
 * may see. It lives in the server's package because it runs on the server's loops, on the measured path.
 * Thread-safe.
 */
public final class MidPhaseCompilingFault implements ServerFault {

    /** When the new code starts to run; never until set. */
    public final AtomicLong from = new AtomicLong(Long.MAX_VALUE);

    @Override
    public long delayNanos() {
        if (System.nanoTime() - from.get() > 0) {
            long s = 0;
            for (int i = 0; i < 2000; i++) {
                s += work1(i) ^ work2(i) ^ work3(i) ^ work4(i) ^ work5(i) ^ work6(i);
            }
            return s == 42 ? 1 : 0;
        }
        return 0;
    }

    static long work1(long x) {
        return Long.rotateLeft(x * 0x9E3779B97F4A7C15L, 31) ^ x;
    }

    static long work2(long x) {
        return Long.rotateRight(x * 0xC2B2AE3D27D4EB4FL, 27) + x;
    }

    static long work3(long x) {
        return (x ^ (x >>> 33)) * 0xFF51AFD7ED558CCDL;
    }

    static long work4(long x) {
        return (x ^ (x >>> 29)) * 0xC4CEB9FE1A85EC53L;
    }

    static long work5(long x) {
        return Long.reverse(x) ^ 0x165667B19E3779F9L;
    }

    static long work6(long x) {
        return Long.bitCount(x) + (x << 7);
    }
}
