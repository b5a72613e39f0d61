package io.loopbench.engine.server;

import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.protocol.BlockingServer;
import io.loopbench.engine.protocol.BlockingSocket;
import io.loopbench.engine.protocol.BlockingProtocol;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code virtual-threads} execution: the echo server. A byte stream: one virtual thread accepts, and one per accepted
 * connection reads what has arrived, checks every complete message, and writes the complete ones back with one
 * blocking write (a partial message waits for its remaining bytes). Datagrams: one virtual thread receives each
 * datagram and sends it back to its sender. Started and closed by the repetition's thread; each end's buffers belong
 * to its virtual thread.
 */
public final class BlockingEchoServer implements Closeable {

    private final int payloadBytes;
    private final ServerCheck check;
    private final BlockingServer server;
    private final List<BlockingSocket> ends = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private volatile boolean closing;

    public BlockingEchoServer(BlockingProtocol protocol, InetSocketAddress bindTo, int payloadBytes, ServerCheck check)
            throws IOException {
        this.payloadBytes = payloadBytes;
        this.check = check;
        this.server = protocol.bind(bindTo);
        if (protocol.stream()) {
            threads.add(VirtualThreads.start("loopbench-vt-server-accept", this::accept));
        } else {
            BlockingSocket socket = server.accept();
            ends.add(socket);
            threads.add(VirtualThreads.start("loopbench-vt-server-datagrams", () -> serveDatagrams(socket)));
        }
    }

    public SocketAddress address() {
        return server.address();
    }

    /** The ends it serves so far: a stream's accepted connections; for datagrams, its one socket. */
    public List<BlockingSocket> ends() {
        return ends;
    }

    /** The bound socket's class, as a result names a channel. */
    public String socketClass() {
        return server.socketClass();
    }

    private void accept() {
        try {
            while (!closing) {
                BlockingSocket s = server.accept();
                ends.add(s);
                threads.add(VirtualThreads.start("loopbench-vt-server-" + ends.size(), () -> serveStream(s)));
            }
        } catch (IOException e) {
            failed(e);
        }
    }

    private void serveStream(BlockingSocket s) {
        byte[] bytes = new byte[Math.max(2 * payloadBytes, 64 * 1024)];
        ByteBuf view = Unpooled.wrappedBuffer(bytes);
        int filled = 0;
        try (s) {
            int n;
            while ((n = s.read(bytes, filled, bytes.length - filled)) >= 0) {
                filled += n;
                int frames = filled / payloadBytes;
                int echoed = 0;
                for (int i = 0; i < frames; i++) {
                    int at = i * payloadBytes;
                    if (!check.accept(view, at, payloadBytes)) {
                        // write what passed before it, and skip the malformed message
                        s.write(bytes, echoed, at - echoed);
                        echoed = at + payloadBytes;
                    }
                }
                int end = frames * payloadBytes;
                s.write(bytes, echoed, end - echoed);
                filled -= end;
                System.arraycopy(bytes, end, bytes, 0, filled);
            }
        } catch (IOException e) {
            failed(e);
        }
    }

    private void serveDatagrams(BlockingSocket s) {
        byte[] bytes = new byte[payloadBytes + 1];
        ByteBuf view = Unpooled.wrappedBuffer(bytes);
        try {
            while (!closing) {
                int n = s.read(bytes, 0, bytes.length);
                if (check.accept(view, 0, n)) {
                    s.write(bytes, 0, n);
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
        server.close();
        ends.forEach(BlockingSocket::close);
        VirtualThreads.joinAll(threads);
    }
}
