package io.loopbench.engine.protocol.tcp;

import io.loopbench.engine.protocol.BlockingSocket;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;

/** A connected blocking TCP socket (tcps: a TLS one). Read and written by one thread; closed from any. */
public final class TcpSocket implements BlockingSocket {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public TcpSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        return in.read(into, offset, length);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
    }

    @Override
    public void readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    @Override
    public boolean isOpen() {
        return socket.isConnected() && !socket.isClosed();
    }

    @Override
    public SocketAddress localAddress() {
        return socket.getLocalSocketAddress();
    }

    @Override
    public SocketAddress remoteAddress() {
        return socket.getRemoteSocketAddress();
    }

    @Override
    public String socketClass() {
        return socket.getClass().getSimpleName();
    }

    @Override
    public Boolean tcpNoDelay() throws IOException {
        return socket.getTcpNoDelay();
    }

    @Override
    public int[] buffers() throws IOException {
        return new int[] {socket.getSendBufferSize(), socket.getReceiveBufferSize()};
    }

    @Override
    public void close() {
        BlockingSocket.closeQuietly(socket);
    }
}
