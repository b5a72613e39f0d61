package io.loopbench.engine;

/**
 * Every error counter of one phase, summed over clients and servers; any non-zero value fails the repetition.
 *
 * @param contentErrors       malformed messages or altered content (client or server side)
 * @param orderErrors         TCP: echo not the next sequence; UDP: sequence not above the last seen
 * @param unexpectedMessages  echoes outside their phase or of a sequence not in flight
 * @param disconnectErrors    connections lost, or not connected, during the phase
 * @param lostMessages        UDP: datagrams unanswered after lossTimeoutMillis or at the end of the drain
 * @param unfinishedMessages  TCP: messages still in flight when the drain ended
 * @param clientSendFailures  client writes that failed, where the execution reports them apart (reactive, virtual
 *                            threads); a Netty handler writes with the channel's void promise, so that a failed write
 *                            of the netty execution, and any server's, is one of the {@code exceptions}
 * @param exceptions          exceptions raised in the pipelines
 * @param drainTimeouts       1 when the phase did not drain within 2 s after its deadline
 */
public record ErrorCounts(
        long contentErrors,
        long orderErrors,
        long unexpectedMessages,
        long disconnectErrors,
        long lostMessages,
        long unfinishedMessages,
        long clientSendFailures,
        long exceptions,
        long drainTimeouts) {

    public long total() {
        return contentErrors + orderErrors + unexpectedMessages + disconnectErrors + lostMessages
                + unfinishedMessages + clientSendFailures + exceptions + drainTimeouts;
    }

    /** The non-zero counters as {@code name=value, …}, for error messages. */
    public String describeNonZero() {
        StringBuilder b = new StringBuilder();
        var components = ErrorCounts.class.getRecordComponents();
        for (var c : components) {
            try {
                long v = (long) c.getAccessor().invoke(this);
                if (v != 0) {
                    b.append(b.isEmpty() ? "" : ", ").append(c.getName()).append('=').append(v);
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return b.toString();
    }
}
