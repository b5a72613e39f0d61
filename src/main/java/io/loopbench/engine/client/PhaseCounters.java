package io.loopbench.engine.client;

/**
 * One client's counts for one phase, or their sum over the clients. Counted by the client's own thread, as it goes;
 * read by the repetition only after the phase barrier has run on that thread.
 */
public final class PhaseCounters {
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

    /** Adds another client's counts (its first error counts only if this has none). */
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

    public long messagesSent() {
        return messagesSent;
    }

    /** Validated echoes. */
    public long messages() {
        return messages;
    }

    public long contentErrors() {
        return contentErrors;
    }

    public long orderErrors() {
        return orderErrors;
    }

    public long unexpectedMessages() {
        return unexpectedMessages;
    }

    public long disconnectErrors() {
        return disconnectErrors;
    }

    public long lostMessages() {
        return lostMessages;
    }

    public long unfinishedMessages() {
        return unfinishedMessages;
    }

    public long sendFailures() {
        return sendFailures;
    }

    public long exceptions() {
        return exceptions;
    }

    public long intendedMessages() {
        return intendedMessages;
    }

    public long lateMessages() {
        return lateMessages;
    }

    public long droppedMessages() {
        return droppedMessages;
    }

    /** The first error's words, or null. */
    public String firstError() {
        return firstError;
    }
}
