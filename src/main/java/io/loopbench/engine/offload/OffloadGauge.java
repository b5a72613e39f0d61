package io.loopbench.engine.offload;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the server's per-message work does in a repetition's measured phase: how many messages are in work at once
 * (threads busy), on average and at the most, the distinct platform threads that ran it, and how many hand-offs wait
 * for an offload thread (a stream's read batch, or one message of the other protocols), on average and at the most.
 * The averages are time averages by Little's law: the time every message spent in work (or waiting), summed, over the
 * phase's length — kept as sums of entry and exit times, so that nothing is stored per message. Thread-safe; touched
 * per message only when the server has work or an offload (see ServerCheck), where an atomic update and a clock read
 * cost little beside the work.
 */
public final class OffloadGauge {

    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger busyPeak = new AtomicInteger();
    private final LongAdder workEntries = new LongAdder();
    private final LongAdder workExits = new LongAdder();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger waitingPeak = new AtomicInteger();
    private final LongAdder handOffs = new LongAdder();
    private final LongAdder takes = new LongAdder();
    private final Set<Thread> platformThreads = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<int[]> seenInRound = ThreadLocal.withInitial(() -> new int[] {-1});
    private volatile int round;
    private volatile long startNanos = System.nanoTime();
    private volatile boolean stopped;

    /**
     * The measured phase starts, its pipeline drained: the figures count from now. Called by the repetition's thread
     * between phases, when no message is in work.
     */
    public void restart() {
        startNanos = System.nanoTime();
        busyPeak.set(busy.get());
        waitingPeak.set(waiting.get());
        workEntries.reset();
        workExits.reset();
        handOffs.reset();
        takes.reset();
        platformThreads.clear();
        round++;
    }

    /** A message's work starts on the calling thread. */
    public void workStarted() {
        busyPeak.accumulateAndGet(busy.incrementAndGet(), Math::max);
        workEntries.add(System.nanoTime() - startNanos);
        Thread t = Thread.currentThread();
        // A virtual thread runs one message: counting each would count messages, not threads.
        if (!t.isVirtual()) {
            int[] seen = seenInRound.get();
            if (seen[0] != round) {
                seen[0] = round;
                platformThreads.add(t);
            }
        }
    }

    public void workEnded() {
        workExits.add(System.nanoTime() - startNanos);
        busy.decrementAndGet();
    }

    /** A hand-off to the offload: waiting until {@link #taken()}. */
    public void handed() {
        waitingPeak.accumulateAndGet(waiting.incrementAndGet(), Math::max);
        handOffs.add(System.nanoTime() - startNanos);
    }

    public void taken() {
        takes.add(System.nanoTime() - startNanos);
        waiting.decrementAndGet();
    }

    /** The repetition is closing: blocking calls return at once (see ServerCheck). */
    public void stop() {
        stopped = true;
    }

    public boolean stopped() {
        return stopped;
    }

    /**
     * What it did since {@link #restart()}, over a phase of {@code phaseNanos}; read once the phase has drained, so
     * that every message that entered the work or the queue has left it.
     */
    public OffloadUse use(long phaseNanos) {
        double seconds = Math.max(1, phaseNanos);
        return new OffloadUse((workExits.sum() - workEntries.sum()) / seconds, busyPeak.get(), platformThreads.size(),
                (takes.sum() - handOffs.sum()) / seconds, waitingPeak.get());
    }
}
