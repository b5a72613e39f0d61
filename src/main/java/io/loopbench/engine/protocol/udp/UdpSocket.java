package io.loopbench.engine.protocol.udp;

import io.loopbench.engine.protocol.BlockingServer;
import io.loopbench.engine.protocol.BlockingSocket;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.SocketAddress;

/**
 * A blocking UDP socket: a client's, connected to its server, or a server's, bound, which is then its own one end and
 * answers each datagram to its sender. Read and written by one thread; closed from any.
 */
final class UdpSocket implements BlockingSocket, BlockingServer {

    private final DatagramSocket socket;
    private final boolean connected;
    /** Every read fills it; a server's write sends it back where it came from, with the bytes given. */
    private final DatagramPacket received = new DatagramPacket(new byte[0], 0);

    UdpSocket(DatagramSocket socket) {
        this.socket = socket;
        this.connected = socket.isConnected();
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        received.setData(into, offset, length);
        socket.receive(received);
        return received.getLength();
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (connected) {
            socket.send(new DatagramPacket(bytes, offset, length));
        } else {
            received.setData(bytes, offset, length);
            socket.send(received);
        }
    }

    @Override
    public void readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    @Override
    public boolean isOpen() {
        return !socket.isClosed();
    }

    @Override
    public SocketAddress address() {
        return socket.getLocalSocketAddress();
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
    public Boolean tcpNoDelay() {
        return null;
    }

    @Override
    public int[] buffers() throws IOException {
        return new int[] {socket.getSendBufferSize(), socket.getReceiveBufferSize()};
    }

    /** A server's socket is its own one end. */
    @Override
    public BlockingSocket accept() {
        return this;
    }

    @Override
    public void close() {
        BlockingSocket.closeQuietly(socket);
    }
}
