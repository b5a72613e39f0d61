package io.loopbench.engine.protocol;

import java.io.Closeable;
import java.io.IOException;
import java.net.SocketAddress;

/**
 * One end's blocking socket, as the virtual-threads execution uses it: one virtual thread reads and writes it;
 * {@link #close()} may come from any thread, and ends a read blocked on it.
 */
public interface BlockingSocket extends Closeable {

    /**
     * Blocks until something arrives: a stream's bytes, at most {@code length} (-1 once the stream has ended), or one
     * datagram (its length). Throws {@link java.net.SocketTimeoutException} when the read timeout passes first.
     */
    int read(byte[] into, int offset, int length) throws IOException;

    /**
     * Writes bytes onto the stream, or as one datagram: to the connected peer, or, from a server's socket, back to the
     * sender of the datagram read last.
     */
    void write(byte[] bytes, int offset, int length) throws IOException;

    /** How long a read may block before it times out, ms; 0 for ever. */
    void readTimeout(int millis) throws IOException;

    boolean isOpen();

    SocketAddress localAddress();

    SocketAddress remoteAddress();

    /** The JDK socket's class, as a result names a channel. */
    String socketClass();

    /** Whether TCP_NODELAY is on; null where the socket has no such option. */
    Boolean tcpNoDelay() throws IOException;

    /** The send and receive buffers the kernel applied, bytes: {send, receive}. */
    int[] buffers() throws IOException;

    /** Closes the socket; a socket that fails to close is done with all the same. */
    @Override
    void close();

    /** Closes a JDK socket for good: a failure to close leaves nothing more to do with it. */
    static void closeQuietly(Closeable socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing for good: nothing more to do with it
        }
    }
}
