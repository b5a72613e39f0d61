package io.loopbench.engine.server;

import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.spec.Protocol;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code virtual-threads} execution: the echo server. TCP: one virtual thread accepts, and one per accepted
 * connection reads what has arrived, checks every complete message, and writes the complete ones back with one
 * blocking write (a partial message waits for its remaining bytes). UDP: one virtual thread receives each datagram
 * and sends it back to its sender. Started and closed by the repetition's thread; each connection's buffers belong
 * to its virtual thread.
 */
public final class BlockingEchoServer implements Closeable {

    private final int payloadBytes;
    private final ServerCheck check;
    private final Closeable socket;
    private final SocketAddress address;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private volatile boolean closing;

    public BlockingEchoServer(Protocol protocol, InetSocketAddress bindTo, int payloadBytes, ServerCheck check)
            throws IOException {
        this.payloadBytes = payloadBytes;
        this.check = check;
        if (protocol == Protocol.UDP) {
            DatagramSocket s = new DatagramSocket(null);
            socket = s;
            s.setReceiveBufferSize(EchoServers.UDP_RECEIVE_BUFFER);
            s.setSendBufferSize(EchoServers.UDP_SEND_BUFFER);
            s.bind(bindTo);
            address = s.getLocalSocketAddress();
            threads.add(VirtualThreads.start("loopbench-vt-server-udp", () -> serveUdp(s)));
        } else {
            ServerSocket s = new ServerSocket();
            socket = s;
            s.bind(bindTo);
            address = s.getLocalSocketAddress();
            threads.add(VirtualThreads.start("loopbench-vt-server-accept", () -> accept(s)));
        }
    }

    public SocketAddress address() {
        return address;
    }

    /** TCP: the accepted connections so far. */
    public List<Socket> accepted() {
        return accepted;
    }

    /** The server socket, for the result's buffer figures. */
    public Closeable socket() {
        return socket;
    }

    private void accept(ServerSocket server) {
        try {
            while (!closing) {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                accepted.add(s);
                threads.add(VirtualThreads.start("loopbench-vt-server-" + accepted.size(), () -> serveTcp(s)));
            }
        } catch (IOException e) {
            failed(e);
        }
    }

    private void serveTcp(Socket s) {
        byte[] bytes = new byte[Math.max(2 * payloadBytes, 64 * 1024)];
        ByteBuf view = Unpooled.wrappedBuffer(bytes);
        int filled = 0;
        try (InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            int n;
            while ((n = in.read(bytes, filled, bytes.length - filled)) >= 0) {
                filled += n;
                int frames = filled / payloadBytes;
                int echoed = 0;
                for (int i = 0; i < frames; i++) {
                    int at = i * payloadBytes;
                    if (!check.accept(view, at, payloadBytes)) {
                        // write what passed before it, and skip the malformed message
                        out.write(bytes, echoed, at - echoed);
                        echoed = at + payloadBytes;
                    }
                }
                int end = frames * payloadBytes;
                out.write(bytes, echoed, end - echoed);
                filled -= end;
                System.arraycopy(bytes, end, bytes, 0, filled);
            }
        } catch (IOException e) {
            failed(e);
        }
    }

    private void serveUdp(DatagramSocket s) {
        byte[] bytes = new byte[payloadBytes + 1];
        ByteBuf view = Unpooled.wrappedBuffer(bytes);
        DatagramPacket packet = new DatagramPacket(bytes, bytes.length);
        try {
            while (!closing) {
                packet.setLength(bytes.length);
                s.receive(packet);
                if (check.accept(view, 0, packet.getLength())) {
                    s.send(packet);
                }
            }
        } catch (IOException e) {
            failed(e);
        }
    }

    private void failed(IOException e) {
        if (!closing) {
            check.exception(e);
        }
    }

    /** From now on, a failing socket is the repetition closing it, not an error. */
    public void markClosing() {
        closing = true;
    }

    /** Closes every socket, which ends the server's virtual threads, and waits for them. */
    @Override
    public void close() {
        closing = true;
        VirtualThreads.closeQuietly(socket);
        accepted.forEach(VirtualThreads::closeQuietly);
        VirtualThreads.joinAll(threads);
    }
}
