package io.loopbench.engine.server;

import io.loopbench.engine.message.MessageFormat;
import io.netty.buffer.ByteBuf;

/**
 * What every echo server does to a message before echoing it, whatever its execution: check the header (counting a
 * malformed message) and run the configured work. Stateless apart from the thread-safe {@link ServerStats}; safe on
 * any thread.
 */
public record ServerCheck(int work, ServerStats stats) {

    /** Whether the message at {@code at} may be echoed; runs the work for it if so. */
    boolean accept(ByteBuf m, int at, int length) {
        if (length < MessageFormat.HEADER_BYTES || !MessageFormat.hasValidHeader(m, at)) {
            stats.contentErrors[MessageFormat.MEASURED_TAG].increment();
            stats.noteError("server: malformed message of " + length + " bytes");
            return false;
        }
        if (work > 0) {
            Work.run(work, m.getByte(at + length - 1));
        }
        return true;
    }

    /** Whether a whole buffer (one message) may be echoed. */
    boolean accept(ByteBuf m) {
        return accept(m, m.readerIndex(), m.readableBytes());
    }

    /**
     * A framed protocol's request that carries no message (another path, another kind of frame); public for a
     * protocol whose own server answers such requests (HTTP's reactive ends: see ReactiveRequests).
     */
    public void refused(String what) {
        stats.contentErrors[MessageFormat.MEASURED_TAG].increment();
        stats.noteError("server: refused " + what);
    }

    void exception(Throwable cause) {
        stats.exceptions[MessageFormat.MEASURED_TAG].increment();
        stats.noteError("server: " + cause);
    }
}
