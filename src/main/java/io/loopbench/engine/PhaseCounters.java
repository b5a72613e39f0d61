package io.loopbench.engine;


/**
 * One client's counts for one phase. Owned by that client's event-loop thread; read by the repetition only
 * after the phase barrier has run on that thread.
 */
final class PhaseCounters {
    long messagesSent;
    long messages;
    long contentErrors;
    long orderErrors;
    long unexpectedMessages;
    long disconnectErrors;
    long lostMessages;
    long unfinishedMessages;
    long sendFailures;
    long exceptions;
    /** Open load: messages whose send time came, those that waited for a window slot, those never sent. */
    long intendedMessages;
    long lateMessages;
    long droppedMessages;
    String firstError;

    void noteError(String text) {
        if (firstError == null) {
            firstError = text;
        }
    }

    void add(PhaseCounters o) {
        messagesSent += o.messagesSent;
        messages += o.messages;
        contentErrors += o.contentErrors;
        orderErrors += o.orderErrors;
        unexpectedMessages += o.unexpectedMessages;
        disconnectErrors += o.disconnectErrors;
        lostMessages += o.lostMessages;
        unfinishedMessages += o.unfinishedMessages;
        sendFailures += o.sendFailures;
        exceptions += o.exceptions;
        intendedMessages += o.intendedMessages;
        lateMessages += o.lateMessages;
        droppedMessages += o.droppedMessages;
        noteError(o.firstError);
    }
}
