package io.loopbench.engine.virtualthreads;

import io.loopbench.engine.client.ClientIo;
import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.protocol.BlockingSocket;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.Closeable;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code virtual-threads} execution: an {@link EchoClient} owned by one virtual thread with a blocking socket.
 * Between phases the thread waits for tasks (the repetition's {@code begin}); during a phase it reads while
 * messages are in flight — handing a stream's complete frames or each datagram to the client, then writing what
 * the client made ready with one blocking write — and runs queued tasks ({@code stop}, {@code finish}) between
 * reads. Datagram reads time out in time for the client's loss check. Thread ownership: everything but
 * {@link #executor()} and {@link #close()} runs on the client's virtual thread.
 */
final class BlockingClient implements ClientIo, Closeable {

    private final EchoClient client;
    private final BlockingSocket socket;
    private final boolean stream;
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final byte[] received;
    private final ByteBuf receivedView;
    private Runnable periodic;
    private long periodNanos;
    private long periodicDue;
    private boolean broken;
    /** Stream: bytes of {@link #received} not yet handed to the client (a partial frame). */
    private int filled;
    private volatile boolean closing;
    private final Thread thread;

    /** @param stream whether the socket is a byte stream, whose messages are cut into frames (see EchoProtocol) */
    BlockingClient(EchoClient client, BlockingSocket socket, boolean stream, int id) {
        this.client = client;
        this.socket = socket;
        this.stream = stream;
        int payloadBytes = client.payloadBytes();
        received = new byte[stream ? Math.max(2 * payloadBytes, 64 * 1024) : payloadBytes + 1];
        receivedView = Unpooled.wrappedBuffer(received);
        thread = VirtualThreads.start("loopbench-vt-client-" + id, this::run);
    }

    BlockingSocket socket() {
        return socket;
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
                    if (stream) {
                        readStream();
                    } else {
                        readDatagram();
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

    private void readStream() {
        try {
            int n = socket.read(received, filled, received.length - filled);
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

    private void readDatagram() {
        try {
            try {
                int n = socket.read(received, 0, received.length);
                client.echoed(receivedView, 0, n);
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
        return !broken && socket.isOpen();
    }

    @Override
    public ByteBuf allocate(int bytes) {
        // A heap buffer, whose array the blocking socket writes from; the client reuses it (see Outgoing).
        return Unpooled.buffer(bytes);
    }

    @Override
    public boolean gathers() {
        return true;
    }

    @Override
    public void write(ByteBuf message, byte tag) {
        try {
            socket.write(message.array(), message.arrayOffset() + message.readerIndex(), message.readableBytes());
        } catch (IOException e) {
            client.sendFailed(tag, e);
        } finally {
            message.release();
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
     * Datagrams: the task runs after the first read that finds it due, and a read waits at most one period, so it runs
     * at most one period late. A fixed read timeout fires only when no datagram arrives for a whole period; one that
     * tracked the due time would fire around every due time, each firing a timer wake-up of the virtual thread.
     */
    @Override
    public Cancellable every(Runnable task, long periodNanos) {
        this.periodic = task;
        this.periodNanos = periodNanos;
        this.periodicDue = System.nanoTime() + periodNanos;
        try {
            socket.readTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(periodNanos)));
        } catch (IOException e) {
            client.exception(e);
        }
        return () -> {
            periodic = null;
            try {
                socket.readTimeout(0);
            } catch (IOException e) {
                // the socket is closed: nothing waits on it any more
            }
        };
    }

    /** Marks the client closing, closes its socket (which ends a blocked read) and interrupts its thread. */
    @Override
    public void close() {
        closing = true;
        client.markClosing();
        socket.close();
        thread.interrupt();
    }
}
