package io.loopbench.engine.virtualthreads;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.EchoPair;
import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.protocol.UdpBuffers;
import io.loopbench.engine.server.BlockingEchoServer;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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
public final class BlockingEchoPair implements EchoPair {

    private final RunSpec spec;
    private final ServerCheck check;
    /** Run between slow steps of set-up: throws CancellationException once the run is cancelled. */
    private final Runnable checkpoint;
    private BlockingEchoServer server;
    private final List<BlockingClient> clients = new ArrayList<>();

    public BlockingEchoPair(RunSpec spec, ServerCheck check, Runnable checkpoint) {
        this.spec = spec;
        this.check = check;
        this.checkpoint = checkpoint;
    }

    @Override
    public List<EchoClient> open() throws Exception {
        SocketAddress serverAddress;
        if (spec.target() != null) {
            serverAddress = Target.parse(spec.target()).orElseThrow().address();
        } else {
            InetAddress host = spec.addressFamily().loopback();
            server = new BlockingEchoServer(spec.protocol(), new InetSocketAddress(host, 0), spec.payloadBytes(),
                    check);
            serverAddress = server.address();
        }
        List<EchoClient> out = new ArrayList<>();
        for (int i = 0; i < spec.clients(); i++) {
            checkpoint.run();
            EchoClient client = new EchoClient(i, spec);
            clients.add(new BlockingClient(client, spec.protocol(), serverAddress, i));
            out.add(client);
        }
        for (EchoClient c : out) {
            if (!c.awaitAttached(SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("a client's virtual thread did not start within "
                        + SETUP_TIMEOUT);
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
        long deadline = System.nanoTime() + SETUP_TIMEOUT.toNanos();
        while (server.accepted().size() < clients.size()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("server accepted " + server.accepted().size() + " of "
                        + clients.size() + " connections within " + SETUP_TIMEOUT.toSeconds() + " s");
            }
            checkpoint.run();
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
        VirtualThreads.joinAll(clients.stream().map(BlockingClient::thread).toList());
        if (server != null) {
            server.close();
        }
    }
}
