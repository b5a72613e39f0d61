package io.loopbench.engine.client;

import java.util.concurrent.TimeUnit;

/**
 * Datagrams only: during a phase, every quarter of the loss timeout (at least 1 ms, at most {@link #LONGEST_PERIOD_MS}),
 * a message unanswered for lossTimeoutMillis is counted lost and its slot handed back to the load, which may reuse
 * it. Confined to its client's thread.
 */
final class LossTimer {

    /**
     * The sweep runs within every warm-up round (0.2 s): at the default timeout's quarter (250 ms) it first ran in the
     * measured phase, whose event loops then met a due scheduled task for the first time, and every UDP repetition's
     * measured phase saw the loop's code deoptimized and compiled again, 13 to 29 times (bench/LOG.md, "A fresh
     * repetition in five seconds").
     */
    static final long LONGEST_PERIOD_MS = 50;

    private final EchoClient client;
    private final Window window;
    private final long timeoutNanos;
    private ClientIo.Cancellable timer;

    LossTimer(EchoClient client, Window window, long timeoutNanos) {
        this.client = client;
        this.window = window;
        this.timeoutNanos = timeoutNanos;
    }

    void start(ClientIo io) {
        timer = io.every(this::expire, Math.clamp(timeoutNanos / 4, TimeUnit.MILLISECONDS.toNanos(1),
                TimeUnit.MILLISECONDS.toNanos(LONGEST_PERIOD_MS)));
    }

    void stop() {
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    private void expire() {
        long now = System.nanoTime();
        for (int slot = 0; slot < window.size(); slot++) {
            if (window.busy(slot) && now - window.sentAt(slot) > timeoutNanos) {
                window.free(slot);
                client.lost(slot);
            }
        }
        client.signalIfDrained();
        client.flushIfPending();
    }
}
