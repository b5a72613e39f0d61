package io.loopbench.engine.client;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WindowMode;
import io.netty.buffer.ByteBuf;
import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One client connection (TCP) or client socket (UDP) and its window of in-flight messages, whatever owns the
 * socket ({@link ClientIo}: a Netty handler, a Reactor Netty connection or a virtual thread). It sends, validates every echo (size, magic, client id, in-flight slot, content,
 * order — arknet's checks, in arknet's order), attributes it to its phase by the tag byte and records its RTT.
 *
 * <p>TCP frames are read in place from the received buffer (no slice per message), and, where the owner
 * {@link ClientIo#gathers() gathers}, the messages sent while one read batch is handled are written into one
 * buffer: one write, one promise and one flush per batch, as a flush-per-batch pipeline would do with separate
 * buffers, minus their per-message allocations. UDP needs one datagram per message.
 *
 * <p>Thread ownership: once attached, every field is read and written only on the owner's thread
 * ({@link ClientIo#executor()}); the repetition reaches it only by tasks submitted there ({@link #begin},
 * {@link #stop}, {@link #finish}) and reads the counters after the {@code finish} task has completed.
 *
 * <p>Slots: message {@code seq} lives in slot {@code seq mod window}, so an echo finds its slot in O(1). A freed
 * slot is refilled with the smallest sequence above every one sent so far that maps to it: on TCP, where echoes
 * return in order, that is always the next sequence; on UDP, where a lost datagram's slot is refilled after
 * {@code lossTimeoutMillis}, sequences keep increasing and gaps are allowed.
 */
public final class EchoClient {

    /** Most bytes of TCP messages gathered into one outgoing buffer before it is written. */
    public static final int OUTGOING_BUFFER_BYTES = 64 * 1024;
    /** Open load: how long a stall the backlog of due messages covers, and its most entries per client. */
    static final double BACKLOG_SECONDS = 0.1;
    static final int MAX_BACKLOG = 65_536;

    private final int id;
    private final int window;
    private final int payloadBytes;
    /** A byte stream: echoes come back in order and none is lost; else datagrams (see EchoProtocol#stream). */
    private final boolean stream;
    private final boolean batch;
    private final long lossTimeoutNanos;
    /** Open load: the time between this client's intended sends, and its offset among all clients. */
    private final boolean open;
    private final long intervalNanos;
    private final long offsetNanos;

    private final long[] slotSequence;
    private final long[] slotSentAt;
    private final long[] slotIntendedAt;
    /** Open load: intended send times that found the window full, oldest first (a ring). */
    private final long[] backlog;
    private int backlogHead;
    private int backlogSize;
    private long nextIntended;
    private final boolean[] slotBusy;
    private int inFlight;
    private long maxSentSequence = -1;
    private long nextExpectedSequence;
    private long lastSeenSequence = -1;

    private final PhaseCounters[] counters = {new PhaseCounters(), new PhaseCounters()};

    private final CountDownLatch attached = new CountDownLatch(1);
    private ClientIo io;
    /** TCP whose owner gathers: messages share the outgoing buffer (fixed at attach, asked once, not per send). */
    private boolean gathering;
    private PhaseContext phase;
    private PhaseCounters current;
    private Histogram histogram;
    private Histogram uncorrected;
    private Histogram sendLag;
    private boolean stopping;
    private boolean finished = true;
    private boolean signalled = true;
    private boolean pendingFlush;
    /** TCP: messages written during the current read batch, sent at its end. */
    private ByteBuf outgoing;
    private long batchStartedAt;
    private int batchPending;
    private boolean batchClean;
    private ClientIo.Cancellable lossTimer;
    /** Set by the repetition (from its own thread) before it closes the channel on purpose. */
    private volatile boolean closing;

    public EchoClient(int id, RunSpec spec, boolean stream) {
        this.id = id;
        this.window = spec.window();
        this.payloadBytes = spec.payloadBytes();
        this.stream = stream;
        this.batch = spec.windowMode() == WindowMode.BATCH;
        this.lossTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(spec.lossTimeoutMillis());
        this.slotSequence = new long[window];
        this.slotSentAt = new long[window];
        this.open = spec.load() == LoadModel.OPEN;
        this.slotIntendedAt = open ? new long[window] : null;
        this.intervalNanos = open ? Math.max(1, (long) (spec.clients() * 1e9 / spec.rate())) : 0;
        this.offsetNanos = open ? intervalNanos * id / spec.clients() : 0;
        // a backlog for the messages due during a 100 ms stall, so that a stall shows as latency, not as drops
        this.backlog = open ? new long[(int) Math.min(MAX_BACKLOG,
                Math.max(window, spec.rate() / spec.clients() * BACKLOG_SECONDS))] : null;
        this.slotBusy = new boolean[window];
    }

    /** Called once, on the owner's thread, when the socket is ready. */
    public void attach(ClientIo owner) {
        this.io = owner;
        this.gathering = stream && owner.gathers();
        attached.countDown();
    }

    /** Waits until the client is attached (Reactor Netty may add a handler just after connectNow returns). */
    public boolean awaitAttached(long timeout, TimeUnit unit) throws InterruptedException {
        return attached.await(timeout, unit);
    }

    public Executor executor() {
        return io.executor();
    }

    public Object histogramOwner() {
        return io.histogramOwner();
    }

    public int payloadBytes() {
        return payloadBytes;
    }

    /** Whether messages are in flight, i.e. echoes are still to be read. */
    public boolean awaitsEchoes() {
        return inFlight > 0;
    }

    public PhaseCounters counters(byte tag) {
        return counters[tag];
    }

    public void markClosing() {
        closing = true;
    }

    /** Starts a phase: fills the window. Runs on the event loop. */
    public void begin(PhaseContext p) {
        phase = p;
        current = counters[p.tag()];
        histogram = p.histograms().get(io.histogramOwner());
        uncorrected = p.uncorrectedHistograms().get(io.histogramOwner());
        sendLag = p.sendLagHistograms().get(io.histogramOwner());
        stopping = false;
        finished = false;
        signalled = false;
        if (!io.isActive()) {
            current.disconnectErrors++;
            current.noteError("client " + id + " was not connected when the phase began");
            finish();
            return;
        }
        if (!stream) {
            long period = Math.max(TimeUnit.MILLISECONDS.toNanos(1), lossTimeoutNanos / 4);
            lossTimer = io.every(this::expireLost, period);
        }
        if (open) {
            // its loop's pacer sends from here on
            nextIntended = p.started() + offsetNanos;
            return;
        }
        if (batch) {
            startBatch();
        } else {
            fillWindow();
        }
        flushIfPending();
    }

    /**
     * Open load: when this client's next message is due, as long as it is still generating them (not stopped, and
     * due before the deadline); else {@link LoopPacer#NONE}.
     */
    long nextDue() {
        return open && !stopping && !finished && nextIntended - phase.deadline() < 0 ? nextIntended : LoopPacer.NONE;
    }

    /**
     * Open load, called by its loop's {@link LoopPacer}: sends every message whose intended time has come — into a
     * free slot at once, or, when the window is full, later from the backlog, or, when the backlog is full too, never
     * (counted dropped). A message due before the deadline is sent even when the pacer reaches it after.
     */
    void paceDue(long now) {
        while (nextDue() != LoopPacer.NONE && nextIntended - now <= 0) {
            current.intendedMessages++;
            int slot = freeSlot();
            if (slot >= 0) {
                sendPaced(slot, nextIntended);
            } else if (backlogSize < backlog.length) {
                backlog[(backlogHead + backlogSize++) % backlog.length] = nextIntended;
            } else {
                current.droppedMessages++;
            }
            nextIntended += intervalNanos;
        }
        flushIfPending();
        signalIfDrained();
    }

    /** Open load: a slot that has just been freed takes the oldest waiting message, if any (until finish). */
    private void sendFromBacklog(int slot) {
        if (backlogSize > 0 && !finished) {
            long intended = backlog[backlogHead];
            backlogHead = (backlogHead + 1) % backlog.length;
            backlogSize--;
            sendPaced(slot, intended);
        } else {
            signalIfDrained();
        }
    }

    /** The slot the next sequence maps to, if free (always, on TCP, where echoes return in order), else any. */
    private int freeSlot() {
        int next = (int) Long.remainderUnsigned(maxSentSequence + 1, window);
        if (!slotBusy[next]) {
            return next;
        }
        for (int slot = 0; slot < window; slot++) {
            if (!slotBusy[slot]) {
                return slot;
            }
        }
        return -1;
    }

    /**
     * The deadline has passed (or an auto warm-up is steady): send nothing more — but, under open load, the messages
     * already due. Runs on the event loop.
     */
    public void stop() {
        if (open && !finished && phase != null) {
            paceDue(System.nanoTime());
        }
        stopping = true;
        signalIfDrained();
    }

    /**
     * Ends the phase for this client: whatever is still in flight is counted lost (UDP) or unfinished (TCP), and
     * any later echo of it is unexpected. Runs on the event loop.
     */
    public void finish() {
        if (finished) {
            signalIfDrained();
            return;
        }
        if (inFlight > 0) {
            if (stream) {
                current.unfinishedMessages += inFlight;
            } else {
                current.lostMessages += inFlight;
            }
            Arrays.fill(slotBusy, false);
            inFlight = 0;
            nextExpectedSequence = maxSentSequence + 1;
        }
        if (open) {
            current.droppedMessages += backlogSize;
            backlogSize = 0;
        }
        finished = true;
        if (lossTimer != null) {
            lossTimer.cancel();
            lossTimer = null;
        }
        signalIfDrained();
    }

    /** TCP: handles every complete frame in the buffer, consuming it; a partial one waits for more bytes. */
    public void frames(ByteBuf in) {
        while (in.readableBytes() >= payloadBytes) {
            echoed(in, in.readerIndex(), payloadBytes);
            in.skipBytes(payloadBytes);
        }
    }

    /** A read batch has been handled: sends what it made ready. */
    public void readComplete() {
        flushIfPending();
    }

    /**
     * One echoed message (a datagram, or a frame) of {@code length} bytes at {@code at}. Its receive time is taken
     * when its slot is matched, per message; the message sent into the freed slot is stamped with that same instant.
     */
    public void echoed(ByteBuf m, int at, int length) {
        if (length != payloadBytes || !MessageFormat.hasValidHeader(m, at) || MessageFormat.clientId(m, at) != id) {
            currentOrMeasured().contentErrors++;
            currentOrMeasured().noteError("client " + id + ": malformed echo of " + length + " bytes");
            return;
        }
        byte tag = MessageFormat.tag(m, at);
        long seq = MessageFormat.sequence(m, at);
        if (phase == null || finished || tag != phase.tag()) {
            counters[tag].unexpectedMessages++;
            counters[tag].noteError("client " + id + ": echo of sequence " + seq + " outside its phase");
            return;
        }
        int slot = (int) Long.remainderUnsigned(seq, window);
        if (!slotBusy[slot] || slotSequence[slot] != seq) {
            current.unexpectedMessages++;
            current.noteError("client " + id + ": echo of sequence " + seq + " that is not in flight");
            return;
        }
        long now = System.nanoTime();
        boolean valid = true;
        if (!MessageFormat.hasValidBody(m, at, payloadBytes, id, seq)) {
            current.contentErrors++;
            current.noteError("client " + id + ": echo of sequence " + seq + " has altered content");
            valid = false;
        }
        if (stream ? seq != nextExpectedSequence : seq <= lastSeenSequence) {
            current.orderErrors++;
            current.noteError("client " + id + ": echo of sequence " + seq + " out of order");
            valid = false;
        }
        lastSeenSequence = Math.max(lastSeenSequence, seq);
        nextExpectedSequence = seq + 1;
        slotBusy[slot] = false;
        inFlight--;
        if (valid) {
            current.messages++;
            if (open) {
                LatencyHistograms.record(histogram, now - slotIntendedAt[slot]);
                LatencyHistograms.record(uncorrected, now - slotSentAt[slot]);
            } else if (!batch) {
                LatencyHistograms.record(histogram, now - slotSentAt[slot]);
            }
        }
        if (open) {
            sendFromBacklog(slot);
        } else if (batch) {
            batchClean &= valid;
            if (--batchPending == 0) {
                completeBatch(now);
            }
        } else if (mayStillSend(now)) {
            send(slot, now);
        } else {
            signalIfDrained();
        }
    }

    /** UDP only: a datagram unanswered for lossTimeoutMillis is counted lost and its slot reused. */
    private void expireLost() {
        long now = System.nanoTime();
        for (int slot = 0; slot < window; slot++) {
            if (slotBusy[slot] && now - slotSentAt[slot] > lossTimeoutNanos) {
                slotBusy[slot] = false;
                inFlight--;
                current.lostMessages++;
                current.noteError("client " + id + ": datagram of sequence " + slotSequence[slot] + " lost");
                if (open) {
                    sendFromBacklog(slot);
                } else if (batch) {
                    batchClean = false;
                    if (--batchPending == 0) {
                        completeBatch(now);
                    }
                } else if (mayStillSend(now)) {
                    send(slot, System.nanoTime());
                }
            }
        }
        signalIfDrained();
        flushIfPending();
    }

    /** Starts a batch: its RTT runs from the first message's send time to the last echo's receive time. */
    private void startBatch() {
        batchPending = window;
        batchClean = true;
        batchStartedAt = fillWindow();
    }

    /**
     * Sends into every slot, starting with the one the next sequence maps to, so that sequences stay contiguous; each
     * message is stamped just before it is handed over. Returns the first message's send time.
     */
    private long fillWindow() {
        int first = (int) Long.remainderUnsigned(maxSentSequence + 1, window);
        long firstSent = System.nanoTime();
        send(first, firstSent);
        for (int k = 1; k < window; k++) {
            send((first + k) % window, System.nanoTime());
        }
        return firstSent;
    }

    private void completeBatch(long now) {
        if (batchClean) {
            LatencyHistograms.record(histogram, now - batchStartedAt);
        }
        if (mayStillSend(now)) {
            startBatch();
        } else {
            signalIfDrained();
        }
    }

    private boolean mayStillSend(long now) {
        return !stopping && !finished && now - phase.deadline() < 0;
    }

    /**
     * Open load: writes a message into a slot, keeping its intended send time (from which its RTT counts), and counts
     * how far the send trailed it.
     */
    private void sendPaced(int slot, long intended) {
        long sentAt = System.nanoTime();
        long lag = sentAt - intended;
        LatencyHistograms.record(sendLag, Math.max(lag, 0));
        if (lag > LoopPacer.LATE_THRESHOLD_NANOS) {
            current.lateMessages++;
        }
        slotIntendedAt[slot] = intended;
        send(slot, sentAt);
    }

    /**
     * Writes the next message into a slot. {@code sentAt}, its send time, was taken before the message is handed to
     * the transport (before any write or flush): by the caller just now, or as the receive time of the echo whose slot
     * it refills.
     */
    private void send(int slot, long sentAt) {
        slotSentAt[slot] = sentAt;
        long seq = maxSentSequence + 1 + Math.floorMod(slot - (maxSentSequence + 1), (long) window);
        if (!gathering) {
            ByteBuf message = io.allocate(payloadBytes);
            MessageFormat.write(message, phase.tag(), id, seq, payloadBytes);
            io.write(message, phase.tag());
        } else {
            if (outgoing != null && outgoing.writableBytes() < payloadBytes) {
                writeOutgoing();
            }
            if (outgoing == null) {
                outgoing = io.allocate(Math.max(payloadBytes,
                        Math.min(window * payloadBytes, OUTGOING_BUFFER_BYTES) / payloadBytes * payloadBytes));
            }
            MessageFormat.write(outgoing, phase.tag(), id, seq, payloadBytes);
        }
        slotSequence[slot] = seq;
        slotBusy[slot] = true;
        inFlight++;
        maxSentSequence = seq;
        current.messagesSent++;
        pendingFlush = true;
    }

    private void writeOutgoing() {
        if (outgoing != null) {
            io.write(outgoing, phase.tag());
            outgoing = null;
        }
    }

    private void flushIfPending() {
        if (pendingFlush) {
            pendingFlush = false;
            writeOutgoing();
            io.flush();
        }
    }

    /**
     * Counts this client drained once nothing is in flight and nothing more will be sent: closed load past the
     * deadline or stopped; open load with no message waiting and none still to come.
     */
    private void signalIfDrained() {
        if (signalled || phase == null || inFlight > 0) {
            return;
        }
        boolean done = finished || (open ? backlogSize == 0 && nextDue() == LoopPacer.NONE
                : !mayStillSend(System.nanoTime()));
        if (done) {
            signalled = true;
            phase.drained().countDown();
        }
    }

    /** Where an error that belongs to no phase yet is counted: the measured phase, which must then fail. */
    private PhaseCounters currentOrMeasured() {
        return current != null ? current : counters[MessageFormat.MEASURED_TAG];
    }

    public void sendFailed(byte tag, Throwable cause) {
        counters[tag].sendFailures++;
        counters[tag].noteError("client " + id + ": send failed: " + cause);
    }

    /** The connection or socket went away; an error unless the repetition is closing it. */
    public void disconnected() {
        if (!closing && phase != null && !finished) {
            current.disconnectErrors++;
            current.noteError("client " + id + " disconnected during the phase");
            finish();
        }
    }

    /** The owner is done with the socket: frees what the client still holds. */
    /** Runs a task on the client's thread after a delay. */
    ClientIo.Cancellable schedule(Runnable task, long delayNanos) {
        return io.schedule(task, delayNanos);
    }

    public void released() {
        if (outgoing != null) {
            outgoing.release();
            outgoing = null;
        }
    }

    public void exception(Throwable cause) {
        PhaseCounters c = currentOrMeasured();
        c.exceptions++;
        c.noteError("client " + id + ": " + cause);
    }
}
