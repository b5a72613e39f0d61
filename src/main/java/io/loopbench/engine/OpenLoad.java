package io.loopbench.engine;

import io.loopbench.engine.latency.Latency;

/**
 * What open load did in the measured phase: how many messages were due at the rate, how many went out late, how
 * many were never sent, and how far actual sends trailed their intended times. Late and dropped messages are the
 * result of a rate the system (or the pacer) cannot follow, not errors.
 *
 * @param rate             the requested rate, messages per second, all clients together
 * @param intendedMessages messages whose intended send time fell in the phase
 * @param lateMessages     of those, messages sent more than {@code lateThresholdUs} after their intended time,
 *                         whatever the reason (a full window, or the pacer itself)
 * @param droppedMessages  of those, messages never sent (the window and its backlog were full)
 * @param lateThresholdUs  how late a send may be before it is counted late, µs
 * @param sendLag          actual minus intended send time of every message sent, µs (its mode is {@code message})
 */
public record OpenLoad(double rate, long intendedMessages, long lateMessages, long droppedMessages,
                       double lateThresholdUs, Latency sendLag) {

    /** The share of the intended messages that were never sent. */
    public double droppedFraction() {
        return intendedMessages == 0 ? 0 : (double) droppedMessages / intendedMessages;
    }
}
