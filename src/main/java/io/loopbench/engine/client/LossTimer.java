package io.loopbench.engine.client;

import java.util.concurrent.TimeUnit;

/**
 * Datagrams only: during a phase, every quarter of the loss timeout (at least 1 ms), a message unanswered for
 * lossTimeoutMillis is counted lost and its slot handed back to the load, which may reuse it. Confined to its
 * client's thread.
 */
final class LossTimer {

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
        timer = io.every(this::expire, Math.max(TimeUnit.MILLISECONDS.toNanos(1), timeoutNanos / 4));
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
