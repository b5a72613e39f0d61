package io.loopbench.engine.client;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.timeline.IntervalRecorder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Open load: the client sends its share of the rate whatever the replies — a message due every clients/rate seconds,
 * offset among the clients — when its loop's {@link LoopPacer} finds it due. A message due with the window full waits
 * in a backlog for a slot; one due with the backlog full too is never sent (counted dropped). RTTs count from each
 * message's intended send time (corrected for coordinated omission) and, apart, from its actual one; how far each
 * send trailed its intended time is recorded too. A message never sent counts in the corrected RTTs too, censored
 * when the phase finishes: it took at least from its intended time until then. Confined to its client's thread.
 */
final class PacedLoad implements Load {

    /** How long a stall the backlog of due messages covers, and its most entries per client. */
    static final double BACKLOG_SECONDS = 0.1;
    static final int MAX_BACKLOG = 65_536;

    private final EchoClient client;
    private final Window window;
    /** The time between this client's intended sends, and its offset among all clients. */
    private final long intervalNanos;
    private final long offsetNanos;
    /** Intended send times that found the window full, oldest first (a ring). */
    private final long[] backlog;
    private int backlogHead;
    private int backlogSize;
    private long nextIntended;
    private IntervalRecorder intervals;
    private Histogram uncorrected;
    private Histogram sendLag;
    /** Intended send times of the phase's dropped messages, as nanoseconds after its start: censored at finish. */
    private final Histogram droppedIntended = LatencyHistograms.create();
    /**
     * This client's own corrected RTTs of the phase, censored drops included, to 2 significant digits (enough to
     * compare clients): its p99 beside the others' says whether open load served them evenly.
     */
    private final Histogram corrected = LatencyHistograms.create(2);
    private long phaseStarted;

    PacedLoad(EchoClient client, Window window, int id, RunSpec spec) {
        this.client = client;
        this.window = window;
        this.intervalNanos = Math.max(1, (long) (spec.clients() * 1e9 / spec.rate()));
        this.offsetNanos = intervalNanos * id / spec.clients();
        // a backlog for the messages due during a 100 ms stall, so that a stall shows as latency, not as drops
        this.backlog = new long[(int) Math.min(MAX_BACKLOG,
                Math.max(window.size(), spec.rate() / spec.clients() * BACKLOG_SECONDS))];
    }

    /** Its loop's pacer sends from here on. */
    @Override
    public void begin(PhaseContext phase, Object histogramOwner) {
        intervals = phase.recorders().get(histogramOwner);
        uncorrected = phase.uncorrectedHistograms().get(histogramOwner);
        sendLag = phase.sendLagHistograms().get(histogramOwner);
        phaseStarted = phase.started();
        nextIntended = phaseStarted + offsetNanos;
        droppedIntended.reset();
        corrected.reset();
    }

    /** This client's corrected RTTs of the last phase; read after the phase's barrier, like its counts. */
    Histogram corrected() {
        return corrected;
    }

    /**
     * When this client's next message is due, as long as it is still generating them (not stopped, and due before the
     * deadline); else {@link LoopPacer#NONE}.
     */
    long nextDue() {
        return client.mayStillSend(nextIntended) ? nextIntended : LoopPacer.NONE;
    }

    /**
     * Sends every message whose intended time has come — into a free slot at once, or, when the window is full, later
     * from the backlog, or, when the backlog is full too, never. A message due before the deadline is sent even when
     * the pacer reaches it after.
     */
    void paceDue(long now) {
        PhaseCounters counters = client.current();
        while (nextDue() != LoopPacer.NONE && nextIntended - now <= 0) {
            counters.intendedMessages++;
            int slot = window.freeSlot();
            if (slot >= 0) {
                sendPaced(slot, nextIntended);
            } else if (backlogSize < backlog.length) {
                backlog[(backlogHead + backlogSize++) % backlog.length] = nextIntended;
            } else {
                counters.droppedMessages++;
                intervals.dropped(now, 1);
                LatencyHistograms.record(droppedIntended, nextIntended - phaseStarted);
            }
            nextIntended += intervalNanos;
        }
        client.flushIfPending();
        client.signalIfDrained();
    }

    /** A freed slot takes the oldest waiting message, if any (until finish). */
    @Override
    public void freed(int slot, boolean valid, long now) {
        if (valid) {
            intervals.record(now - window.intendedAt(slot));
            LatencyHistograms.record(corrected, now - window.intendedAt(slot));
            LatencyHistograms.record(uncorrected, now - window.sentAt(slot));
        }
        if (backlogSize > 0 && !client.finished()) {
            long intended = backlog[backlogHead];
            backlogHead = (backlogHead + 1) % backlog.length;
            backlogSize--;
            sendPaced(slot, intended);
        } else {
            client.signalIfDrained();
        }
    }

    @Override
    public boolean sending() {
        return backlogSize > 0 || nextDue() != LoopPacer.NONE;
    }

    /** Sends the messages already due before the client stops. */
    @Override
    public void stop() {
        if (!client.finished()) {
            paceDue(System.nanoTime());
        }
    }

    /** The backlog is dropped; every message dropped in the phase counts, censored now, in the corrected RTTs. */
    @Override
    public void finish() {
        long now = System.nanoTime();
        client.current().droppedMessages += backlogSize;
        if (backlogSize > 0) {
            intervals.dropped(now, backlogSize);
        }
        for (; backlogSize > 0; backlogSize--) {
            intervals.censored(now, now - backlog[backlogHead], 1);
            LatencyHistograms.record(corrected, now - backlog[backlogHead]);
            backlogHead = (backlogHead + 1) % backlog.length;
        }
        for (HistogramIterationValue v : droppedIntended.recordedValues()) {
            intervals.censored(now, now - phaseStarted - v.getValueIteratedTo(), v.getCountAtValueIteratedTo());
            LatencyHistograms.record(corrected, now - phaseStarted - v.getValueIteratedTo(),
                    v.getCountAtValueIteratedTo());
        }
        droppedIntended.reset();
    }

    /** Runs a task on the client's thread after a delay. */
    ClientIo.Cancellable schedule(Runnable task, long delayNanos) {
        return client.schedule(task, delayNanos);
    }

    /** Writes a message into a slot, keeping its intended send time, and counts how far the send trailed it. */
    private void sendPaced(int slot, long intended) {
        long sentAt = System.nanoTime();
        long lag = sentAt - intended;
        LatencyHistograms.record(sendLag, Math.max(lag, 0));
        if (lag > LoopPacer.LATE_THRESHOLD_NANOS) {
            client.current().lateMessages++;
            intervals.late(sentAt);
        }
        window.intended(slot, intended);
        client.send(slot, sentAt);
    }
}
