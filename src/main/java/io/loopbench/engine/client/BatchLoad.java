package io.loopbench.engine.client;

import io.loopbench.engine.timeline.IntervalRecorder;

/**
 * Closed load, batch mode: writes the whole window at once and reads all of it back, then starts the next batch,
 * until the deadline. One RTT per batch, from its first message's send time to its last echo's receive time, and
 * only for a batch whose every echo was validated. Confined to its client's thread.
 */
final class BatchLoad implements Load {

    private final EchoClient client;
    private final int size;
    private IntervalRecorder intervals;
    private long startedAt;
    private int pending;
    private boolean clean;

    BatchLoad(EchoClient client, int size) {
        this.client = client;
        this.size = size;
    }

    @Override
    public void begin(PhaseContext phase, Object histogramOwner) {
        intervals = phase.recorders().get(histogramOwner);
        start();
    }

    @Override
    public void freed(int slot, boolean valid, long now) {
        clean &= valid;
        if (--pending == 0) {
            complete(now);
        }
    }

    @Override
    public boolean sending() {
        return client.mayStillSend(System.nanoTime());
    }

    private void start() {
        pending = size;
        clean = true;
        startedAt = client.fillWindow();
    }

    private void complete(long now) {
        if (clean) {
            intervals.record(now - startedAt);
        }
        if (client.mayStillSend(now)) {
            start();
        } else {
            client.signalIfDrained();
        }
    }
}
