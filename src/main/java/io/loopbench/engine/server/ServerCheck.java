package io.loopbench.engine.server;

import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.offload.OffloadGauge;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What every echo server does to a message before echoing it, whatever its execution: check the header (counting a
 * malformed message), then run the configured CPU work and blocking call, on whichever thread calls it (the loop, or
 * the offload's). Stateless apart from the thread-safe {@link ServerStats} and gauge; safe on any thread.
 *
 * @param work          xorshift iterations per message (arknet's {@code --work})
 * @param blockingNanos how long each message's blocking call parks its thread
 * @param gauge         counts the work's threads; null to count nothing (no work and no offload)
 */
public record ServerCheck(int work, long blockingNanos, ServerStats stats, OffloadGauge gauge) {

    /** A long blocking call sleeps in slices this long, so that a closing repetition ends it within one. */
    private static final long BLOCKING_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    public ServerCheck {
        if (blockingNanos > 0 && gauge == null) {
            throw new IllegalArgumentException("a blocking call needs a gauge, which stops it when the run closes");
        }
    }

    /** A check that runs CPU work only and counts nothing. */
    public ServerCheck(int work, ServerStats stats) {
        this(work, 0, stats, null);
    }

    /** Whether the message at {@code at} may be echoed; runs the work for it if so. */
    boolean accept(ByteBuf m, int at, int length) {
        if (length < MessageFormat.HEADER_BYTES || !MessageFormat.hasValidHeader(m, at)) {
            stats.contentErrors[MessageFormat.MEASURED_TAG].increment();
            stats.noteError("server: malformed message of " + length + " bytes");
            return false;
        }
        if (gauge == null) {
            if (work > 0) {
                Work.run(work, m.getByte(at + length - 1));
            }
            return true;
        }
        gauge.workStarted();
        try {
            if (work > 0) {
                Work.run(work, m.getByte(at + length - 1));
            }
            if (blockingNanos > 0) {
                block();
            }
        } finally {
            gauge.workEnded();
        }
        return true;
    }

    /**
     * Parks the thread for the blocking call, as a JDBC driver's socket read does (a virtual thread unmounts). Once the
     * repetition is closing (the gauge stopped), it returns at once, lest a loop that queued many calls hold the pair's
     * close for their sum.
     */
    private void block() {
        long end = System.nanoTime() + blockingNanos;
        try {
            for (long left = blockingNanos; left > 0 && !gauge.stopped(); left = end - System.nanoTime()) {
                Thread.sleep(Duration.ofNanos(Math.min(left, BLOCKING_SLICE_NANOS)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the pool's close interrupts a call still blocked
        }
    }

    /** Whether a whole buffer (one message) may be echoed; public for a protocol's own server (gRPC's service). */
    public boolean accept(ByteBuf m) {
        return accept(m, m.readerIndex(), m.readableBytes());
    }

    /**
     * A framed protocol's request that carries no message (another path, another kind of frame); public for a
     * protocol whose own server answers such requests (HTTP's reactive ends: see ReactiveRequests).
     */
    public void refused(String what) {
        stats.contentErrors[MessageFormat.MEASURED_TAG].increment();
        stats.noteError("server: refused " + what);
    }

    void exception(Throwable cause) {
        stats.exceptions[MessageFormat.MEASURED_TAG].increment();
        stats.noteError("server: " + cause);
    }
}
