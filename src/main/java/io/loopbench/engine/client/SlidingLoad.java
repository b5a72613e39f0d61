package io.loopbench.engine.client;

import io.loopbench.engine.timeline.IntervalRecorder;

/**
 * Closed load, sliding window: a phase begins by filling the window, and each freed slot takes the next message at
 * once, stamped with the instant the echo that freed it was received — until the deadline. One RTT per validated
 * echo, from its message's send time. Confined to its client's thread.
 */
final class SlidingLoad implements Load {

    private final EchoClient client;
    private final Window window;
    private IntervalRecorder intervals;

    SlidingLoad(EchoClient client, Window window) {
        this.client = client;
        this.window = window;
    }

    @Override
    public void begin(PhaseContext phase, Object histogramOwner) {
        intervals = phase.recorders().get(histogramOwner);
        client.fillWindow();
    }

    @Override
    public void freed(int slot, boolean valid, long now) {
        if (valid) {
            intervals.record(now - window.sentAt(slot));
        }
        if (client.mayStillSend(now)) {
            client.send(slot, now);
        } else {
            client.signalIfDrained();
        }
    }

    @Override
    public boolean sending() {
        return client.mayStillSend(System.nanoTime());
    }
}
