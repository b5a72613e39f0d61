package io.loopbench.engine;

import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets another thread cancel a running measurement. The measuring thread notices within {@link #POLL_NANOS} while
 * it waits for a phase to end, stops its clients and releases everything. Optionally holds the measured phase at a
 * {@link MeasuredPhaseGate}. Thread-safe: its fields are volatile.
 */
public final class RunControl {

    static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private volatile boolean cancelled;
    private volatile MeasuredPhaseGate gate;

    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    /**
     * Holds each repetition of the measurement this control is given to before its measured phase, until the gate
     * is released (a run across hosts: one repetition per measurement).
     */
    public RunControl holdMeasuredPhase(MeasuredPhaseGate measuredPhaseGate) {
        this.gate = measuredPhaseGate;
        return this;
    }

    /** The repetition's thread, between warm-up and measured phase: waits at the gate, if there is one. */
    void beforeMeasuredPhase() throws InterruptedException {
        MeasuredPhaseGate g = gate;
        if (g != null) {
            g.pass(this);
        }
    }

    void throwIfCancelled() {
        if (cancelled) {
            throw new CancellationException("measurement cancelled");
        }
    }

    /**
     * Sleeps until {@code deadline} ({@link System#nanoTime()}) unless cancelled first, running {@code meanwhile} at
     * each look at the clock (every {@link #POLL_NANOS}).
     */
    void sleepUntil(long deadline, Runnable meanwhile) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            throwIfCancelled();
            LockSupport.parkNanos(Math.min(left, POLL_NANOS));
            meanwhile.run();
        }
        throwIfCancelled();
    }
}
