package io.loopbench.engine.virtualthreads;

import io.loopbench.engine.client.ClientIo;
import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.EchoPair;
import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.server.EchoServers;
import io.loopbench.engine.spec.Protocol;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code virtual-threads} execution: an {@link EchoClient} owned by one virtual thread with a blocking socket.
 * Between phases the thread waits for tasks (the repetition's {@code begin}); during a phase it reads while
 * messages are in flight — handing complete TCP frames or each datagram to the client, then writing what the
 * client made ready with one blocking write — and runs queued tasks ({@code stop}, {@code finish}) between reads.
 * UDP reads time out in time for the client's loss check. Thread ownership: everything but {@link #executor()} and
 * {@link #close()} runs on the client's virtual thread.
 */
final class BlockingClient implements ClientIo, Closeable {

    private final EchoClient client;
    private final Socket tcp;
    private final InputStream tcpIn;
    private final OutputStream tcpOut;
    private final DatagramSocket udp;
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final byte[] received;
    private final ByteBuf receivedView;
    /** UDP: the one packet every read fills. */
    private final DatagramPacket incoming;
    /** The one outgoing buffer: every write is finished before the client asks for the next one. */
    private ByteBuf outgoing;
    private Runnable periodic;
    private long periodNanos;
    private long periodicDue;
    private boolean broken;
    /** TCP: bytes of {@link #received} not yet handed to the client (a partial frame). */
    private int filled;
    private volatile boolean closing;
    private final Thread thread;

    BlockingClient(EchoClient client, Protocol protocol, SocketAddress server, int id) throws IOException {
        this.client = client;
        int payloadBytes = client.payloadBytes();
        if (protocol == Protocol.UDP) {
            udp = new DatagramSocket(null);
            tcp = null;
            udp.setReceiveBufferSize(EchoServers.UDP_RECEIVE_BUFFER);
            udp.setSendBufferSize(EchoServers.UDP_SEND_BUFFER);
            udp.connect(server);
            tcpIn = null;
            tcpOut = null;
            received = new byte[payloadBytes + 1];
        } else {
            tcp = new Socket();
            udp = null;
            tcp.setTcpNoDelay(true);
            tcp.connect(server, (int) EchoPair.SETUP_TIMEOUT.toMillis());
            tcpIn = tcp.getInputStream();
            tcpOut = tcp.getOutputStream();
            received = new byte[Math.max(2 * payloadBytes, 64 * 1024)];
        }
        receivedView = Unpooled.wrappedBuffer(received);
        incoming = new DatagramPacket(received, received.length);
        outgoing = Unpooled.buffer(Math.max(payloadBytes, EchoClient.OUTGOING_BUFFER_BYTES));
        thread = VirtualThreads.start("loopbench-vt-client-" + id, this::run);
    }

    /** The client's socket, whichever protocol. */
    Closeable socket() {
        return tcp != null ? tcp : udp;
    }

    Socket tcp() {
        return tcp;
    }

    DatagramSocket udp() {
        return udp;
    }

    Thread thread() {
        return thread;
    }

    private void run() {
        client.attach(this);
        try {
            while (!closing) {
                tasks.take().run();
                runQueuedTasks();
                while (!broken && client.awaitsEchoes()) {
                    if (tcp != null) {
                        readTcp();
                    } else {
                        readUdp();
                    }
                    runQueuedTasks();
                }
            }
        } catch (InterruptedException e) {
            // the repetition is closing this client
        } finally {
            client.released();
        }
    }

    private void runQueuedTasks() {
        Runnable t;
        while ((t = tasks.poll()) != null) {
            t.run();
        }
    }

    private void readTcp() {
        try {
            int n = tcpIn.read(received, filled, received.length - filled);
            if (n < 0) {
                lost(null);
                return;
            }
            filled += n;
            receivedView.setIndex(0, filled);
            client.frames(receivedView);
            int consumed = receivedView.readerIndex();
            filled -= consumed;
            System.arraycopy(received, consumed, received, 0, filled);
            client.readComplete();
        } catch (IOException e) {
            lost(e);
        }
    }

    private void readUdp() {
        try {
            incoming.setLength(received.length);
            try {
                udp.receive(incoming);
                client.echoed(receivedView, 0, incoming.getLength());
            } catch (SocketTimeoutException e) {
                // time for the periodic check
            }
            long now = System.nanoTime();
            if (periodic != null && now - periodicDue >= 0) {
                periodicDue = now + periodNanos;
                periodic.run();
            }
            client.readComplete();
        } catch (IOException e) {
            lost(e);
        }
    }

    /** The socket failed or reached its end: the client counts it, unless the repetition is closing it. */
    private void lost(IOException e) {
        broken = true;
        if (e != null && !closing) {
            client.exception(e);
        }
        client.disconnected();
    }

    @Override
    public Executor executor() {
        return tasks::add;
    }

    @Override
    public Object histogramOwner() {
        return this;
    }

    @Override
    public boolean isActive() {
        return !broken && (tcp != null ? tcp.isConnected() && !tcp.isClosed() : !udp.isClosed());
    }

    @Override
    public ByteBuf allocate(int bytes) {
        outgoing.clear();
        outgoing.ensureWritable(bytes);
        return outgoing;
    }

    @Override
    public boolean gathers() {
        return true;
    }

    @Override
    public void write(ByteBuf message, byte tag) {
        try {
            if (tcp != null) {
                tcpOut.write(message.array(), message.arrayOffset() + message.readerIndex(), message.readableBytes());
            } else {
                udp.send(new DatagramPacket(message.array(), message.arrayOffset() + message.readerIndex(),
                        message.readableBytes()));
            }
        } catch (IOException e) {
            client.sendFailed(tag, e);
        }
    }

    @Override
    public void flush() {
        // every write has already gone to the socket
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        throw new UnsupportedOperationException("virtual-threads execution runs closed load only");
    }

    /**
     * UDP: the task runs after the first read that finds it due, and a read waits at most one period, so it runs at
     * most one period late. A fixed read timeout fires only when no datagram arrives for a whole period; one that
     * tracked the due time would fire around every due time, each firing a timer wake-up of the virtual thread.
     */
    @Override
    public Cancellable every(Runnable task, long periodNanos) {
        this.periodic = task;
        this.periodNanos = periodNanos;
        this.periodicDue = System.nanoTime() + periodNanos;
        try {
            udp.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(periodNanos)));
        } catch (IOException e) {
            client.exception(e);
        }
        return () -> {
            periodic = null;
            if (udp != null) {
                try {
                    udp.setSoTimeout(0);
                } catch (IOException e) {
                    // the socket is closed: nothing waits on it any more
                }
            }
        };
    }

    /** Marks the client closing, closes its socket (which ends a blocked read) and interrupts its thread. */
    @Override
    public void close() {
        closing = true;
        client.markClosing();
        VirtualThreads.closeQuietly(socket());
        thread.interrupt();
    }
}
