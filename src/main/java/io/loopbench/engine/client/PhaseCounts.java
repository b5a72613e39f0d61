package io.loopbench.engine.client;

/**
 * One phase's counts: a client's, taken after the phase's barrier, or their sum over a repetition's clients.
 * Immutable.
 *
 * @param messagesSent       messages written
 * @param messages           validated echoes
 * @param intendedMessages   open load: messages whose send time came
 * @param lateMessages       open load: of those, messages sent late
 * @param droppedMessages    open load: of those, messages never sent
 * @param firstError         the first error's words (the first client's, in a sum), or null
 */
public record PhaseCounts(long messagesSent, long messages, long contentErrors, long orderErrors,
                          long unexpectedMessages, long disconnectErrors, long lostMessages, long unfinishedMessages,
                          long sendFailures, long exceptions, long intendedMessages, long lateMessages,
                          long droppedMessages, String firstError) {

    public static final PhaseCounts NONE = new PhaseCounts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null);

    /** These counts and another client's; the first error is this one's, if it has one. */
    public PhaseCounts plus(PhaseCounts o) {
        return new PhaseCounts(messagesSent + o.messagesSent, messages + o.messages, contentErrors + o.contentErrors,
                orderErrors + o.orderErrors, unexpectedMessages + o.unexpectedMessages,
                disconnectErrors + o.disconnectErrors, lostMessages + o.lostMessages,
                unfinishedMessages + o.unfinishedMessages, sendFailures + o.sendFailures, exceptions + o.exceptions,
                intendedMessages + o.intendedMessages, lateMessages + o.lateMessages,
                droppedMessages + o.droppedMessages, firstError != null ? firstError : o.firstError);
    }
}
