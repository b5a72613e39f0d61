package io.loopbench.engine.client;

/**
 * One client's counts for one phase, counted as it goes. Owned by that client's thread; the repetition takes them
 * ({@link #counts()}) only after the phase barrier has run on that thread.
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

    PhaseCounts counts() {
        return new PhaseCounts(messagesSent, messages, contentErrors, orderErrors, unexpectedMessages,
                disconnectErrors, lostMessages, unfinishedMessages, sendFailures, exceptions, intendedMessages,
                lateMessages, droppedMessages, firstError);
    }
}
