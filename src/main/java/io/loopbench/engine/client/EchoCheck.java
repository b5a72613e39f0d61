package io.loopbench.engine.client;

import io.loopbench.engine.message.MessageFormat;
import io.netty.buffer.ByteBuf;

/**
 * A client's check of every echo, with arknet's checks in arknet's order: its size, magic and client id; its phase,
 * by the tag byte; its in-flight slot; its content; its order. Each failure is counted in its phase's counters, the
 * first with its words. An echo that matches a message in flight frees its slot, whether it passes the rest or not.
 * Confined to its client's thread.
 */
final class EchoCheck {

    private final EchoClient client;
    private final Window window;
    private final int id;
    private final int payloadBytes;
    private final MessageFormat.Bodies bodies;

    EchoCheck(EchoClient client, Window window, int id, int payloadBytes) {
        this.client = client;
        this.window = window;
        this.id = id;
        this.payloadBytes = payloadBytes;
        this.bodies = MessageFormat.Bodies.of(payloadBytes);
    }

    /**
     * Checks the echo of {@code length} bytes at {@code at}, received at {@code now}: the instant its read batch's
     * handling began, one clock read for every echo of the batch (they all arrived with it). The message sent into
     * the freed slot is stamped with that same instant.
     */
    void check(ByteBuf m, int at, int length, long now) {
        long head = length == payloadBytes ? MessageFormat.head(m, at) : 0;
        if (length != payloadBytes || !MessageFormat.validHead(head, id)) {
            PhaseCounters counters = client.currentOrMeasured();
            counters.contentErrors++;
            counters.noteError("client " + id + ": malformed echo of " + length + " bytes");
            return;
        }
        byte tag = MessageFormat.tag(head);
        long seq = MessageFormat.sequence(m, at);
        if (!client.inPhase(tag)) {
            client.counters(tag).unexpectedMessages++;
            client.counters(tag).noteError("client " + id + ": echo of sequence " + seq + " outside its phase");
            return;
        }
        PhaseCounters current = client.current();
        int slot = window.slotOf(seq);
        if (slot < 0) {
            current.unexpectedMessages++;
            current.noteError("client " + id + ": echo of sequence " + seq + " that is not in flight");
            return;
        }
        boolean valid = true;
        if (!bodies.valid(m, at, id, seq)) {
            current.contentErrors++;
            current.noteError("client " + id + ": echo of sequence " + seq + " has altered content");
            valid = false;
        }
        if (!window.returned(slot)) {
            current.orderErrors++;
            current.noteError("client " + id + ": echo of sequence " + seq + " out of order");
            valid = false;
        }
        client.returned(slot, valid, now);
    }
}
