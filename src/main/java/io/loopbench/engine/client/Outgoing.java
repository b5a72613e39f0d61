package io.loopbench.engine.client;

import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.latency.LatencyHistograms;
import io.netty.buffer.ByteBuf;
import org.HdrHistogram.Histogram;

/**
 * How a client's messages reach its socket, each written in arknet's format. A datagram, or a message whose owner
 * does not gather, gets a buffer of its own. A byte stream whose owner {@link ClientIo#gathers() gathers} writes the
 * messages sent while one read batch is handled back to back into one buffer: one write, one promise and one flush
 * per batch, as a flush-per-batch pipeline would do with separate buffers, minus their per-message allocations.
 *
 * <p>The buffers are reused: each comes from a small ring and goes to the transport as a reference of its own, which
 * the transport releases once the bytes are sent; a buffer whose count is back to the ring's one reference is free
 * again, one still held by a write is left to it and replaced. A steady phase thus allocates no buffer.
 *
 * <p>It also measures where the send stamps are: each message's stamp is kept until the flush that hands its bytes
 * to the transport, and the time from stamp to that hand-over, taken just before the flush, is its stamp gap (the
 * part of its RTT spent in the client before it left: the rest of the read batch that freed its slot, its
 * formatting). Confined to its client's thread.
 */
final class Outgoing {

    private final ClientIo io;
    private final int id;
    private final int payloadBytes;
    private final boolean gathering;
    /** A gathered buffer's size: the window's messages, within {@link ClientIo#GATHER_BYTES}, and at least one. */
    private final int gatherBytes;
    /** Reusable buffers, within {@link #RING_BYTES}. */
    private final ByteBuf[] ring;
    private int next;
    private ByteBuf gathered;
    private byte gatheredTag;
    private boolean pending;
    /** Send stamps of the messages written since the last flush: never more than a window's. */
    private final long[] stamps;
    private int stamped;

    /**
     * Most bytes of buffers one client keeps (at least two buffers): bounds what a large window of large messages
     * holds; a client never keeps more than its window's messages and one more, as it has in flight anyway.
     */
    private static final int RING_BYTES = 1 << 20;

    /** @param gathering whether messages share one buffer per read batch (asked once, not per send) */
    Outgoing(ClientIo io, int id, int payloadBytes, int window, boolean gathering) {
        this.io = io;
        this.id = id;
        this.payloadBytes = payloadBytes;
        this.gathering = gathering;
        this.gatherBytes = Math.max(payloadBytes,
                Math.min(window * payloadBytes, ClientIo.GATHER_BYTES) / payloadBytes * payloadBytes);
        // Room for one read batch's buffers (a window's messages at most) and one more, should the transport still
        // hold the previous batch's.
        int bufferBytes = gathering ? gatherBytes : payloadBytes;
        long perBatch = gathering ? ((long) window * payloadBytes + gatherBytes - 1) / gatherBytes : window;
        this.ring = new ByteBuf[(int) Math.min(perBatch + 1, Math.max(2, RING_BYTES / bufferBytes))];
        this.stamps = new long[window];
    }

    /**
     * Writes message {@code seq} of the phase {@code tag}, stamped {@code sentAt}; it leaves at the next
     * {@link #flushIfPending}.
     */
    void write(byte tag, long seq, long sentAt) {
        if (stamped < stamps.length) { // a slot is written at most once between flushes: always true
            stamps[stamped++] = sentAt;
        }
        if (!gathering) {
            ByteBuf message = take(payloadBytes);
            MessageFormat.write(message, tag, id, seq, payloadBytes);
            io.write(message, tag);
        } else {
            if (gathered != null && gathered.writableBytes() < payloadBytes) {
                writeGathered();
            }
            if (gathered == null) {
                gathered = take(gatherBytes);
                gatheredTag = tag;
            }
            MessageFormat.write(gathered, tag, id, seq, payloadBytes);
        }
        pending = true;
    }

    /**
     * Sends what was written since the last flush, first recording each message's stamp gap into {@code gaps} (the
     * phase's histogram of this client's thread; null: not recorded).
     */
    void flushIfPending(Histogram gaps) {
        if (pending) {
            long handedOver = System.nanoTime();
            for (int i = 0; i < stamped && gaps != null; i++) {
                LatencyHistograms.record(gaps, handedOver - stamps[i]);
            }
            stamped = 0;
            pending = false;
            writeGathered();
            io.flush();
        }
    }

    /** The owner is done with the socket: frees a gathered buffer never written and the ring's references. */
    void release() {
        if (gathered != null) {
            gathered.release();
            gathered = null;
        }
        for (int i = 0; i < ring.length; i++) {
            if (ring[i] != null) {
                ring[i].release();
                ring[i] = null;
            }
        }
    }

    /** The ring's next buffer, emptied, as a reference for one write. */
    private ByteBuf take(int bytes) {
        ByteBuf b = ring[next];
        if (b != null && b.refCnt() == 1) {
            b.clear();
        } else {
            if (b != null) {
                b.release();
            }
            b = io.allocate(bytes);
            ring[next] = b;
        }
        next = (next + 1) % ring.length;
        return b.retain();
    }

    private void writeGathered() {
        if (gathered != null) {
            io.write(gathered, gatheredTag);
            gathered = null;
        }
    }
}
