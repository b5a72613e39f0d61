package io.loopbench.engine.client;

import io.loopbench.engine.message.MessageFormat;
import io.netty.buffer.ByteBuf;

/**
 * How a client's messages reach its socket, each written in arknet's format. A datagram, or a message whose owner
 * does not gather, gets a buffer of its own. A byte stream whose owner {@link ClientIo#gathers() gathers} writes the
 * messages sent while one read batch is handled back to back into one buffer: one write, one promise and one flush
 * per batch, as a flush-per-batch pipeline would do with separate buffers, minus their per-message allocations.
 * Confined to its client's thread.
 */
final class Outgoing {

    private final ClientIo io;
    private final int id;
    private final int payloadBytes;
    private final boolean gathering;
    /** A gathered buffer's size: the window's messages, within {@link ClientIo#GATHER_BYTES}, and at least one. */
    private final int gatherBytes;
    private ByteBuf gathered;
    private byte gatheredTag;
    private boolean pending;

    /** @param gathering whether messages share one buffer per read batch (asked once, not per send) */
    Outgoing(ClientIo io, int id, int payloadBytes, int window, boolean gathering) {
        this.io = io;
        this.id = id;
        this.payloadBytes = payloadBytes;
        this.gathering = gathering;
        this.gatherBytes = Math.max(payloadBytes,
                Math.min(window * payloadBytes, ClientIo.GATHER_BYTES) / payloadBytes * payloadBytes);
    }

    /** Writes message {@code seq} of the phase {@code tag}; it leaves at the next {@link #flushIfPending()}. */
    void write(byte tag, long seq) {
        if (!gathering) {
            ByteBuf message = io.allocate(payloadBytes);
            MessageFormat.write(message, tag, id, seq, payloadBytes);
            io.write(message, tag);
        } else {
            if (gathered != null && gathered.writableBytes() < payloadBytes) {
                writeGathered();
            }
            if (gathered == null) {
                gathered = io.allocate(gatherBytes);
                gatheredTag = tag;
            }
            MessageFormat.write(gathered, tag, id, seq, payloadBytes);
        }
        pending = true;
    }

    /** Sends what was written since the last flush. */
    void flushIfPending() {
        if (pending) {
            pending = false;
            writeGathered();
            io.flush();
        }
    }

    /** The owner is done with the socket: frees a gathered buffer never written. */
    void release() {
        if (gathered != null) {
            gathered.release();
            gathered = null;
        }
    }

    private void writeGathered() {
        if (gathered != null) {
            io.write(gathered, gatheredTag);
            gathered = null;
        }
    }
}
