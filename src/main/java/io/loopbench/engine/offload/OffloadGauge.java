package io.loopbench.engine.offload;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the server's per-message work did in a repetition: the most messages in work at once (threads busy at once),
 * the distinct platform threads that ran it, and the most hand-offs waiting for an offload thread (a stream's read
 * batch, or one message of the other protocols). Counts from the warm-up's start: the peaks are the repetition's.
 * Thread-safe; touched per message only when the server has work or an offload (see ServerCheck), where one atomic
 * update costs little beside the work.
 */
public final class OffloadGauge {

    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger busyPeak = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger waitingPeak = new AtomicInteger();
    private final Set<Thread> platformThreads = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<Boolean> seen = ThreadLocal.withInitial(() -> false);
    private volatile boolean stopped;

    /** A message's work starts on the calling thread. */
    public void workStarted() {
        busyPeak.accumulateAndGet(busy.incrementAndGet(), Math::max);
        Thread t = Thread.currentThread();
        // A virtual thread runs one message: counting each would count messages, not threads.
        if (!t.isVirtual() && !seen.get()) {
            seen.set(true);
            platformThreads.add(t);
        }
    }

    public void workEnded() {
        busy.decrementAndGet();
    }

    /** A hand-off to the offload: queued until {@link #taken()}. */
    public void handed() {
        waitingPeak.accumulateAndGet(waiting.incrementAndGet(), Math::max);
    }

    public void taken() {
        waiting.decrementAndGet();
    }

    /** The repetition is closing: blocking calls return at once (see ServerCheck). */
    public void stop() {
        stopped = true;
    }

    public boolean stopped() {
        return stopped;
    }

    /** What it did so far. */
    public OffloadUse use() {
        return new OffloadUse(busyPeak.get(), platformThreads.size(), waitingPeak.get());
    }
}
