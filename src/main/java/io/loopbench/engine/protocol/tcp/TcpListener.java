package io.loopbench.engine.protocol.tcp;

import io.loopbench.engine.protocol.BlockingServer;
import io.loopbench.engine.protocol.BlockingSocket;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;

/**
 * A blocking TCP listener (tcps: a TLS one); every connection it accepts gets TCP_NODELAY. Accepts on one thread;
 * closes on any.
 */
public final class TcpListener implements BlockingServer {

    private final ServerSocket socket;

    public TcpListener(ServerSocket socket) {
        this.socket = socket;
    }

    @Override
    public SocketAddress address() {
        return socket.getLocalSocketAddress();
    }

    @Override
    public String socketClass() {
        return socket.getClass().getSimpleName();
    }

    @Override
    public BlockingSocket accept() throws IOException {
        Socket s = socket.accept();
        s.setTcpNoDelay(true);
        return new TcpSocket(s);
    }

    @Override
    public void close() {
        BlockingSocket.closeQuietly(socket);
    }
}
