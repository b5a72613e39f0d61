package io.loopbench.engine.protocol;

import java.io.Closeable;
import java.io.IOException;
import java.net.SocketAddress;

/**
 * A virtual-threads echo server's bound socket. Its ends are accepted one by one from a stream protocol's listener;
 * a datagram protocol's server has one end, its socket, which every client's datagrams reach. {@link #accept()} runs
 * on the server's thread; {@link #close()} may come from any thread, and ends an accept blocked on it.
 */
public interface BlockingServer extends Closeable {

    SocketAddress address();

    /** The JDK socket's class, as a result names a channel. */
    String socketClass();

    /** The next end to serve: a stream's next connection (blocking until one comes); for datagrams, its one socket. */
    BlockingSocket accept() throws IOException;

    /** Closes the bound socket: a listener, not the connections accepted from it; for datagrams, its one end. */
    @Override
    void close();
}
