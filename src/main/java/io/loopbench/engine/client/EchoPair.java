package io.loopbench.engine.client;

import io.loopbench.engine.protocol.UdpBuffers;

import java.util.List;

/**
 * The sockets of one repetition, whatever its execution: its echo servers (none with a target), its connected
 * clients, and what the result says about them. Created, opened and closed by the repetition's thread; closing
 * releases every socket, thread and loop it made, also after a failed or cancelled {@link #open}.
 */
public interface EchoPair extends AutoCloseable {
    /** Binds the servers and connects every client; returns the clients, attached and ready for a phase. */
    List<EchoClient> open() throws Exception;

    /** The threads that carry the sockets: event loops, or the carrier threads that ran. */
    int threads();

    /** The servers' socket class, or null with a target. */
    String serverChannel();

    String clientChannel();

    /** Where the echoes come from: this repetition's servers, or the target. */
    String serverAddresses();

    String clientAddress();

    /**
     * Per client, in order: whether its server end runs on its own thread; null where that does not apply (a remote
     * target, virtual threads).
     */
    List<Boolean> sameThread();

    /** Clients whose server end runs on the same thread, or null where that does not apply. */
    default Integer connectionsOnOneThread() {
        List<Boolean> same = sameThread();
        return same == null ? null : (int) same.stream().filter(Boolean::booleanValue).count();
    }

    /** A byte stream: whether TCP_NODELAY is on at every end; null for datagrams. */
    Boolean tcpNoDelay();

    /** Datagrams: the socket buffers requested and granted; null for a byte stream. */
    UdpBuffers udpBuffers();

    @Override
    void close();
}
