package io.loopbench.engine;

/**
 * What open load did in the measured phase: how many messages were due at the rate, how many had to wait for a
 * window slot, and how many were never sent because the wait was full too. Late and dropped messages are the
 * result of a rate the system cannot follow, not errors.
 *
 * @param rate             the requested rate, messages per second, all clients together
 * @param intendedMessages messages whose intended send time came during the phase
 * @param lateMessages     of those, messages sent late because the window was full at their time
 * @param droppedMessages  of those, messages never sent (the window and its backlog were full, or the phase ended)
 */
public record OpenLoad(double rate, long intendedMessages, long lateMessages, long droppedMessages) {
}
