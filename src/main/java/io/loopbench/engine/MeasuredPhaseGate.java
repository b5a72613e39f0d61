package io.loopbench.engine;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a repetition between its warm-up and its measured phase until another thread releases it: what lets clients
 * on several hosts, each warmed up on its own, begin their measured phases at one instant. Given to a measurement
 * through {@link RunControl#holdMeasuredPhase}; used for one repetition.
 *
 * <p>Threads: the repetition's thread arrives and waits ({@link #pass}); any other thread waits for that arrival
 * ({@link #awaitArrival}) and releases it ({@link #release}). Both are latches, so each may be called from any thread.
 */
public final class MeasuredPhaseGate {

    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final long maxHoldNanos;

    /**
     * @param maxHold how long the repetition may be held at most: a release that never comes (its releaser gone
     *                without cancelling) fails the repetition rather than leaving its connections open for ever
     */
    public MeasuredPhaseGate(Duration maxHold) {
        this.maxHoldNanos = maxHold.toNanos();
    }

    /** Waits until the repetition has warmed up and is held here; false when it has not within {@code timeout}. */
    public boolean awaitArrival(Duration timeout) throws InterruptedException {
        return arrived.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Whether the repetition is held here, or was. */
    public boolean arrived() {
        return arrived.getCount() == 0;
    }

    /** Lets the repetition begin its measured phase (at once, if it is held; when it arrives, otherwise). */
    public void release() {
        released.countDown();
    }

    /**
     * The repetition's thread: marks its arrival and waits for the release, looking for cancellation every
     * {@link RunControl#POLL_NANOS}.
     *
     * @throws CancellationException when cancelled, or not released within the longest hold
     */
    void pass(RunControl control) throws InterruptedException {
        arrived.countDown();
        long deadline = System.nanoTime() + maxHoldNanos;
        while (!released.await(RunControl.POLL_NANOS, TimeUnit.NANOSECONDS)) {
            control.throwIfCancelled();
            if (System.nanoTime() - deadline > 0) {
                throw new CancellationException("not released for the measured phase within "
                        + Duration.ofNanos(maxHoldNanos).toMillis() + " ms");
            }
        }
        control.throwIfCancelled();
    }
}
