package io.loopbench.engine.client;


/**
 * One client's counts for one phase. Owned by that client's event-loop thread; read by the repetition only
 * after the phase barrier has run on that thread.
 */
public final class PhaseCounters {
    public long messagesSent;
    public long messages;
    public long contentErrors;
    public long orderErrors;
    public long unexpectedMessages;
    public long disconnectErrors;
    public long lostMessages;
    public long unfinishedMessages;
    public long sendFailures;
    public long exceptions;
    /** Open load: messages whose send time came, those that waited for a window slot, those never sent. */
    public long intendedMessages;
    public long lateMessages;
    public long droppedMessages;
    public String firstError;

    void noteError(String text) {
        if (firstError == null) {
            firstError = text;
        }
    }

    public void add(PhaseCounters o) {
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
