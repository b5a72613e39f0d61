package io.loopbench.engine.protocol;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * A protocol the JDK's blocking sockets carry too, for the virtual-threads execution (TCP, UDP, TLS over TCP). The
 * others run on Netty's loops only: the JDK has no blocking WebSocket or pipelining HTTP/1.1 ends. A protocol is one
 * exactly when its {@code Protocol.runsOn(VIRTUAL_THREADS)}. Threads: as {@link EchoProtocol}.
 */
public interface BlockingProtocol extends EchoProtocol {

    /** A blocking server socket bound to {@code address}, for a virtual-threads echo server. */
    BlockingServer bind(InetSocketAddress address) throws IOException;

    /** A blocking client socket connected to {@code server}, for a virtual-threads client. */
    BlockingSocket connect(SocketAddress server) throws IOException;
}
