package io.loopbench.engine.client;

import java.util.Arrays;

/**
 * A client's window of messages in flight: which slots are busy, with which sequence, sent (and, under open load,
 * intended to be sent) when; and what the order check remembers of the echoes seen. Message {@code seq} lives in slot
 * {@code seq mod size}, so an echo finds its slot in O(1). A freed slot takes the smallest sequence above every one
 * sent so far that maps to it: where echoes return in order, that is always the next sequence; with datagrams, whose
 * lost ones free their slots only after the loss timeout, or streams that complete in any order, sequences keep
 * increasing and gaps are allowed. Confined to
 * its client's thread.
 */
final class Window {

    private final int size;
    /** What order echoes must return in. */
    private final EchoOrder order;
    private final long[] sequence;
    private final long[] sentAt;
    /** Open load: each message's intended send time; null under closed load. */
    private final long[] intendedAt;
    private final boolean[] busy;
    private int inFlight;
    private long maxSent = -1;
    private long nextExpected;
    private long lastSeen = -1;

    Window(int size, EchoOrder order, boolean open) {
        this.size = size;
        this.order = order;
        this.sequence = new long[size];
        this.sentAt = new long[size];
        this.intendedAt = open ? new long[size] : null;
        this.busy = new boolean[size];
    }

    int size() {
        return size;
    }

    int inFlight() {
        return inFlight;
    }

    /** The slot the next sequence maps to: a window is filled from there, so that sequences stay contiguous. */
    int nextSlot() {
        return (int) Long.remainderUnsigned(maxSent + 1, size);
    }

    /** The slot the next sequence maps to, if free (always, where echoes return in order), else any; -1 if none. */
    int freeSlot() {
        int next = nextSlot();
        if (!busy[next]) {
            return next;
        }
        for (int slot = 0; slot < size; slot++) {
            if (!busy[slot]) {
                return slot;
            }
        }
        return -1;
    }

    /** Takes a free slot for the next message that maps to it, sent at {@code sentAt}; returns its sequence. */
    long take(int slot, long sentAt) {
        long seq = maxSent + 1 + Math.floorMod(slot - (maxSent + 1), (long) size);
        this.sentAt[slot] = sentAt;
        sequence[slot] = seq;
        busy[slot] = true;
        inFlight++;
        maxSent = seq;
        return seq;
    }

    /** Open load: when the message in {@code slot} was meant to be sent; its RTT counts from then. */
    void intended(int slot, long at) {
        intendedAt[slot] = at;
    }

    /** The slot of message {@code seq} if it is in flight, else -1. */
    int slotOf(long seq) {
        int slot = (int) Long.remainderUnsigned(seq, size);
        return busy[slot] && sequence[slot] == seq ? slot : -1;
    }

    boolean busy(int slot) {
        return busy[slot];
    }

    long sequence(int slot) {
        return sequence[slot];
    }

    long sentAt(int slot) {
        return sentAt[slot];
    }

    long intendedAt(int slot) {
        return intendedAt[slot];
    }

    /**
     * The echo of the message in {@code slot} has come back: frees the slot and says whether the echo came in order —
     * the next sequence, where echoes return in order; with datagrams, one above every sequence seen; any, where the
     * order is not promised.
     */
    boolean returned(int slot) {
        long seq = sequence[slot];
        boolean inOrder = switch (order) {
            case SENT -> seq == nextExpected;
            case RISING -> seq > lastSeen;
            case ANY -> true;
        };
        lastSeen = Math.max(lastSeen, seq);
        nextExpected = seq + 1;
        free(slot);
        return inOrder;
    }

    /** The message in {@code slot} will not come back (a lost datagram): frees the slot. */
    void free(int slot) {
        busy[slot] = false;
        inFlight--;
    }

    /** Empties the window at a phase's end, so that a later echo of what was in flight is unexpected; how many were. */
    int clear() {
        int cleared = inFlight;
        if (cleared > 0) {
            Arrays.fill(busy, false);
            inFlight = 0;
            nextExpected = maxSent + 1;
        }
        return cleared;
    }
}
