package io.loopbench.engine;

import java.io.Closeable;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code virtual-threads} execution: a {@link BlockingEchoServer} (unless there is a target) and one
 * {@link BlockingClient} per client, all virtual threads of the JDK's scheduler (see {@link VirtualThreads}). Used by
 * one thread, the repetition's.
 */
final class BlockingEchoPair implements EchoPair {

    static final long JOIN_MILLIS = TimeUnit.SECONDS.toMillis(3);

    private final RunSpec spec;
    private final ServerCheck check;
    private final RunControl control;
    private BlockingEchoServer server;
    private final List<BlockingClient> clients = new ArrayList<>();

    BlockingEchoPair(RunSpec spec, ServerCheck check, RunControl control) {
        this.spec = spec;
        this.check = check;
        this.control = control;
    }

    @Override
    public List<EchoClient> open() throws Exception {
        SocketAddress serverAddress;
        if (spec.target() != null) {
            serverAddress = Target.parse(spec.target()).orElseThrow().address();
        } else {
            InetAddress host = Repetition.loopback(spec.addressFamily());
            server = new BlockingEchoServer(spec.protocol(), new InetSocketAddress(host, 0), spec.payloadBytes(),
                    check);
            serverAddress = server.address();
        }
        List<EchoClient> out = new ArrayList<>();
        for (int i = 0; i < spec.clients(); i++) {
            control.throwIfCancelled();
            EchoClient client = new EchoClient(i, spec);
            clients.add(new BlockingClient(client, spec.protocol(), serverAddress, i));
            out.add(client);
        }
        for (EchoClient c : out) {
            if (!c.awaitAttached(Repetition.SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("a client's virtual thread did not start within "
                        + Repetition.SETUP_TIMEOUT);
            }
        }
        awaitAccepted();
        return out;
    }

    /** TCP: waits until the server has accepted every connection, so both ends are known. */
    private void awaitAccepted() throws InterruptedException {
        if (server == null || spec.protocol() != Protocol.TCP) {
            return;
        }
        long deadline = System.nanoTime() + Repetition.SETUP_TIMEOUT.toNanos();
        while (server.accepted().size() < clients.size()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("server accepted " + server.accepted().size() + " of "
                        + clients.size() + " connections within " + Repetition.SETUP_TIMEOUT.toSeconds() + " s");
            }
            control.throwIfCancelled();
            Thread.sleep(1);
        }
    }

    @Override
    public int threads() {
        return VirtualThreads.carrierThreads();
    }

    @Override
    public String serverChannel() {
        return server == null ? null : server.socket().getClass().getSimpleName();
    }

    @Override
    public String clientChannel() {
        return clients.getFirst().socket().getClass().getSimpleName();
    }

    @Override
    public String serverAddresses() {
        BlockingClient c = clients.getFirst();
        return String.valueOf(c.tcp() != null ? c.tcp().getRemoteSocketAddress() : c.udp().getRemoteSocketAddress());
    }

    @Override
    public String clientAddress() {
        BlockingClient c = clients.getFirst();
        return String.valueOf(c.tcp() != null ? c.tcp().getLocalSocketAddress() : c.udp().getLocalSocketAddress());
    }

    /** A virtual thread has no fixed thread: it runs on whichever carrier is free. */
    @Override
    public Integer connectionsOnOneThread() {
        return null;
    }

    @Override
    public Boolean tcpNoDelay() {
        if (spec.protocol() != Protocol.TCP) {
            return null;
        }
        try {
            boolean all = true;
            for (BlockingClient c : clients) {
                all &= c.tcp().getTcpNoDelay();
            }
            if (server != null) {
                for (Socket s : server.accepted()) {
                    all &= s.getTcpNoDelay();
                }
            }
            return all;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public UdpBuffers udpBuffers() {
        if (spec.protocol() != Protocol.UDP) {
            return null;
        }
        try {
            List<int[]> clientBuffers = new ArrayList<>();
            for (BlockingClient c : clients) {
                clientBuffers.add(new int[] {c.udp().getSendBufferSize(), c.udp().getReceiveBufferSize()});
            }
            var s = server == null ? null : (DatagramSocket) server.socket();
            return UdpBuffers.applied(s == null ? null : s.getSendBufferSize(),
                    s == null ? null : s.getReceiveBufferSize(), clientBuffers);
        } catch (IOException e) {
            return null;
        }
    }

    /** Closes the clients, then the server, waiting for every virtual thread to end. */
    @Override
    public void close() {
        if (server != null) {
            server.markClosing();
        }
        clients.forEach(BlockingClient::close);
        joinAll(clients.stream().map(BlockingClient::thread).toList());
        if (server != null) {
            server.close();
        }
    }

    static void closeQuietly(Closeable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (IOException e) {
            // closing for good: nothing more to do with it
        }
    }

    static void joinAll(List<Thread> threads) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MILLIS);
        try {
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
