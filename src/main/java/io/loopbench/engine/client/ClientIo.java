package io.loopbench.engine.client;

import io.netty.buffer.ByteBuf;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What an {@link EchoClient} needs from the code that owns its socket: a Netty handler, a Reactor Netty
 * connection, or a virtual thread with a blocking socket. Every method is called on the client's own thread, the
 * one {@link #executor()} runs tasks on.
 */
public interface ClientIo {

    /** Most bytes of a stream's messages gathered into one buffer: an owner that gathers takes writes of this size. */
    int GATHER_BYTES = 64 * 1024;

    /** Runs tasks on the client's thread, in order. */
    Executor executor();

    /** The thread whose RTT histogram the client records into: an event loop, or the client itself. */
    Object histogramOwner();

    boolean isActive();

    ByteBuf allocate(int bytes);

    /**
     * Whether several of a stream's messages may be gathered into one buffer and written once per read batch; a
     * reactive client sends each message through its own pipeline instead.
     */
    boolean gathers();

    /**
     * Writes one buffer (taking it over); a failure reaches {@link EchoClient#sendFailed} or, through a Netty
     * pipeline, {@link EchoClient#exception}.
     */
    void write(ByteBuf message, byte tag);

    void flush();

    /** Runs a task once after a delay; the returned handle cancels it. */
    Cancellable schedule(Runnable task, long delayNanos);

    /** Runs a task every period until cancelled. */
    Cancellable every(Runnable task, long periodNanos);

    /** A scheduled task that can be called off. */
    interface Cancellable {
        void cancel();
    }

    /** {@link #schedule} on an event loop. */
    static Cancellable schedule(ScheduledExecutorService loop, Runnable task, long delayNanos) {
        var f = loop.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        return () -> f.cancel(false);
    }

    /** {@link #every} on an event loop. */
    static Cancellable every(ScheduledExecutorService loop, Runnable task, long periodNanos) {
        var f = loop.scheduleAtFixedRate(task, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
        return () -> f.cancel(false);
    }
}
