package io.loopbench.engine.client;

import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.process.Startup;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WindowMode;
import io.loopbench.engine.timeline.IntervalRecorder;
import io.netty.buffer.ByteBuf;
import org.HdrHistogram.Histogram;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One client connection or client socket, whatever owns it ({@link ClientIo}: a Netty handler, a Reactor Netty
 * connection or a virtual thread): the client's side of each phase, which it begins, stops and finishes, saying when
 * it has drained. What it keeps of the messages in flight is its {@link Window}; how it writes them, its
 * {@link Outgoing}; how it checks their echoes, its {@link EchoCheck}; when it sends and what an RTT is, its
 * {@link Load}. It knows its protocol only as a byte stream or datagrams (see EchoProtocol): whether echoes return in
 * order, whether they can be lost ({@link LossTimer}), and whether messages may share a write.
 *
 * <p>Thread ownership: once attached, every field is read and written only on the owner's thread
 * ({@link ClientIo#executor()}); the repetition reaches it only by tasks submitted there ({@link #begin},
 * {@link #stop}, {@link #finish}) and reads the counters after the {@code finish} task has completed.
 */
public final class EchoClient {

    private final int id;
    private final int payloadBytes;
    /** A byte stream: echoes come back in order and none is lost; datagrams may be lost or overtaken. */
    private final boolean stream;
    private final Window window;
    private final EchoCheck check;
    private final Load load;
    /** Open load: the {@link #load}, for its loop's pacer; null under closed load. */
    private final PacedLoad paced;
    /** Datagrams: counts what goes unanswered; null for a stream. */
    private final LossTimer losses;

    private final PhaseCounters[] counters = {new PhaseCounters(), new PhaseCounters()};

    private final CountDownLatch attached = new CountDownLatch(1);
    private ClientIo io;
    /** Its group where the layout splits the clients: set by the repetition's thread before the first phase. */
    private Object group;
    private Outgoing outgoing;
    private PhaseContext phase;
    private PhaseCounters current;
    /** Its thread's timeline recorder of the phase running. */
    private IntervalRecorder intervals;
    /** Its thread's stamp gaps of the phase running ({@link Outgoing#flushIfPending}). */
    private Histogram stampGaps;
    private boolean stopping;
    private boolean finished = true;
    private boolean signalled = true;
    /** Set by the repetition (from its own thread) before it closes the channel on purpose. */
    private volatile boolean closing;

    /**
     * A client whose echoes come back in the order sent (a byte stream) or each above every one seen (datagrams).
     *
     * @param stream whether the protocol is a byte stream rather than datagrams (see EchoProtocol)
     */
    public EchoClient(int id, RunSpec spec, boolean stream) {
        this(id, spec, stream ? EchoOrder.SENT : EchoOrder.RISING);
    }

    /** @param order what order its echoes must come in; any but {@link EchoOrder#RISING} is a stream's, none lost */
    public EchoClient(int id, RunSpec spec, EchoOrder order) {
        this.id = id;
        this.payloadBytes = spec.payloadBytes();
        this.stream = order != EchoOrder.RISING;
        boolean open = spec.load() == LoadModel.OPEN;
        this.window = new Window(spec.window(), order, open);
        this.check = new EchoCheck(this, window, id, payloadBytes);
        this.losses = stream ? null
                : new LossTimer(this, window, TimeUnit.MILLISECONDS.toNanos(spec.lossTimeoutMillis()));
        this.paced = open ? new PacedLoad(this, window, id, spec) : null;
        this.load = open ? paced
                : spec.windowMode() == WindowMode.BATCH ? new BatchLoad(this, spec.window())
                : new SlidingLoad(this, window);
    }

    /** Called once, on the owner's thread, when the socket is ready. */
    public void attach(ClientIo owner) {
        this.io = owner;
        this.outgoing = new Outgoing(owner, id, payloadBytes, window.size(), stream && owner.gathers());
        attached.countDown();
    }

    /** Waits until the client is attached (Reactor Netty may add a handler just after connectNow returns). */
    public boolean awaitAttached(long timeout, TimeUnit unit) throws InterruptedException {
        return attached.await(timeout, unit);
    }

    public Executor executor() {
        return io.executor();
    }

    /**
     * The key of the histograms and timeline recorder it records into: its thread's, or, where the repetition put it
     * in a group ({@link #group}), its thread's share of that group (still written by that thread alone).
     */
    public Object histogramOwner() {
        return group == null ? io.histogramOwner() : new GroupShare(io.histogramOwner(), group);
    }

    /** Its thread's key ({@link ClientIo#histogramOwner()}), whatever its group: one pacer per thread. */
    public Object thread() {
        return io.histogramOwner();
    }

    /** Puts it in a group whose RTTs are kept apart; before its first phase, from the repetition's thread. */
    public void group(Object g) {
        group = g;
    }

    public int id() {
        return id;
    }

    public int payloadBytes() {
        return payloadBytes;
    }

    /** Whether messages are in flight, i.e. echoes are still to be read. */
    public boolean awaitsEchoes() {
        return window.inFlight() > 0;
    }

    /** The client's counts for the phase with this tag; taken after the phase's barrier. */
    public PhaseCounts counts(byte tag) {
        return counters[tag].counts();
    }

    PhaseCounters counters(byte tag) {
        return counters[tag];
    }

    public void markClosing() {
        closing = true;
    }

    /** Starts a phase: fills the window, or, under open load, leaves the sending to its loop's pacer. */
    public void begin(PhaseContext p) {
        phase = p;
        current = counters[p.tag()];
        Object owner = histogramOwner();
        intervals = p.recorders().get(owner);
        stampGaps = p.stampGapHistograms().get(owner);
        stopping = false;
        finished = false;
        signalled = false;
        if (!io.isActive()) {
            current.disconnectErrors++;
            current.noteError("client " + id + " was not connected when the phase began");
            finish();
            return;
        }
        if (losses != null) {
            losses.start(io);
        }
        load.begin(p, owner);
        flushIfPending();
    }

    /**
     * The deadline has passed (or an auto warm-up is steady): send nothing more — but, under open load, the messages
     * already due.
     */
    public void stop() {
        load.stop();
        stopping = true;
        signalIfDrained();
    }

    /**
     * Ends the phase for this client: whatever is still in flight is counted unfinished (a stream) or lost
     * (datagrams), and any later echo of it is unexpected.
     */
    public void finish() {
        if (finished) {
            signalIfDrained();
            return;
        }
        int inFlight = window.clear();
        if (stream) {
            current.unfinishedMessages += inFlight;
        } else {
            current.lostMessages += inFlight;
        }
        load.finish();
        finished = true;
        if (losses != null) {
            losses.stop();
        }
        signalIfDrained();
    }

    /**
     * A stream: handles every complete frame in the buffer, read in place (no slice per message), consuming it; a
     * partial one waits for more bytes. The frames of one read arrived together: one clock read serves them all,
     * rather than one per echo (a clock read is about 20 ns of a round trip's 0.5 µs of CPU at 16 × 16 × 1 KiB).
     */
    public void frames(ByteBuf in) {
        if (in.readableBytes() < payloadBytes) {
            return;
        }
        long now = System.nanoTime();
        do {
            check.check(in, in.readerIndex(), payloadBytes, now);
            in.skipBytes(payloadBytes);
        } while (in.readableBytes() >= payloadBytes);
    }

    /** A read batch has been handled: sends what it made ready. */
    public void readComplete() {
        flushIfPending();
    }

    /** One echoed message (a datagram, or a framed protocol's message) of {@code length} bytes at {@code at}. */
    public void echoed(ByteBuf m, int at, int length) {
        check.check(m, at, length, System.nanoTime());
    }

    /**
     * A framed protocol's reply that carries no echo (an HTTP status other than 200): a content error; the message it
     * answers stays in flight, as a malformed echo's does.
     */
    public void notAnEcho(String what) {
        PhaseCounters c = currentOrMeasured();
        c.contentErrors++;
        c.noteError("client " + id + ": " + what + " instead of an echo");
    }

    /**
     * A call that ended without its echo (a gRPC status other than OK): a content error, as {@link #notAnEcho} — unless
     * the repetition is closing the connection, which cancels the calls still in flight on purpose.
     */
    public void callFailed(String what) {
        if (!closing) {
            notAnEcho(what);
        }
    }

    /** The echo of the message in {@code slot} came back at {@code now} and freed it; {@code valid} if it passed. */
    void returned(int slot, boolean valid, long now) {
        if (valid) {
            current.messages++;
            intervals.echoed(now);
            // Every echo, not each phase's first: a branch taken once per phase would be compiled as never taken and
            // deoptimise at the measured phase's first echo; this one is taken once per JVM, before any compilation.
            Startup.echoed();
        }
        load.freed(slot, valid, now);
    }

    /** Datagrams: the message in {@code slot}, whose slot was just freed, went unanswered: counts it lost. */
    void lost(int slot) {
        current.lostMessages++;
        current.noteError("client " + id + ": datagram of sequence " + window.sequence(slot) + " lost");
        load.freed(slot, false, System.nanoTime());
    }

    /**
     * Open load: this client's own corrected RTTs of the last phase (censored drops included); null under closed load.
     * Read after the phase's barrier, like {@link #counts}.
     */
    public Histogram openLoadLatency() {
        return paced == null ? null : paced.corrected();
    }

    /** Open load: how this client is paced, for its loop's {@link LoopPacer}; null under closed load. */
    PacedLoad paced() {
        return paced;
    }

    /**
     * Sends into every slot, starting with the one the next sequence maps to, so that sequences stay contiguous; each
     * message is stamped just before it is handed over. Returns the first message's send time.
     */
    long fillWindow() {
        int first = window.nextSlot();
        long firstSent = System.nanoTime();
        send(first, firstSent);
        for (int k = 1; k < window.size(); k++) {
            send((first + k) % window.size(), System.nanoTime());
        }
        return firstSent;
    }

    /**
     * Writes the next message into a free slot. {@code sentAt}, its send time, was taken before the message is handed
     * to the transport (before any write or flush): by the caller just now, or as the receive time of the echo whose
     * slot it refills.
     */
    void send(int slot, long sentAt) {
        outgoing.write(phase.tag(), window.take(slot, sentAt), sentAt);
        current.messagesSent++;
    }

    /** Whether a message due at {@code at} may still be sent: the client is not stopped and the deadline not past. */
    boolean mayStillSend(long at) {
        return !stopping && !finished && at - phase.deadline() < 0;
    }

    boolean finished() {
        return finished;
    }

    /** Whether an echo of a phase with this tag belongs to the phase running now. */
    boolean inPhase(byte tag) {
        return phase != null && !finished && tag == phase.tag();
    }

    PhaseCounters current() {
        return current;
    }

    void flushIfPending() {
        outgoing.flushIfPending(stampGaps);
    }

    /** Counts this client drained once nothing is in flight and its load has nothing more to send. */
    void signalIfDrained() {
        if (signalled || phase == null || window.inFlight() > 0) {
            return;
        }
        if (finished || !load.sending()) {
            signalled = true;
            phase.drained().countDown();
        }
    }

    /** Where an error that belongs to no phase yet is counted: the measured phase, which must then fail. */
    PhaseCounters currentOrMeasured() {
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

    /** Runs a task on the client's thread after a delay. */
    ClientIo.Cancellable schedule(Runnable task, long delayNanos) {
        return io.schedule(task, delayNanos);
    }

    /** The owner is done with the socket: frees what the client still holds. */
    public void released() {
        if (outgoing != null) {
            outgoing.release();
        }
    }

    public void exception(Throwable cause) {
        PhaseCounters c = currentOrMeasured();
        c.exceptions++;
        c.noteError("client " + id + ": " + cause);
    }
}
