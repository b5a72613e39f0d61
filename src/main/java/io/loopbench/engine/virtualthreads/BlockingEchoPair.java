package io.loopbench.engine.virtualthreads;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.EchoPair;
import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.protocol.BlockingSocket;
import io.loopbench.engine.protocol.BlockingProtocol;
import io.loopbench.engine.protocol.UdpBuffers;
import io.loopbench.engine.server.BlockingEchoServer;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.loopbench.engine.protocol.EchoProtocol.SETUP_TIMEOUT;

/**
 * {@code virtual-threads} execution: a {@link BlockingEchoServer} (unless there is a target) and one
 * {@link BlockingClient} per client, all virtual threads of the JDK's scheduler (see {@link VirtualThreads}). Used by
 * one thread, the repetition's.
 */
public final class BlockingEchoPair implements EchoPair {

    private final RunSpec spec;
    private final BlockingProtocol protocol;
    private final ServerCheck check;
    /** Run between slow steps of set-up: throws CancellationException once the run is cancelled. */
    private final Runnable checkpoint;
    private BlockingEchoServer server;
    private final List<BlockingClient> clients = new ArrayList<>();

    public BlockingEchoPair(RunSpec spec, BlockingProtocol protocol, ServerCheck check, Runnable checkpoint) {
        this.spec = spec;
        this.protocol = protocol;
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
            server = new BlockingEchoServer(protocol, new InetSocketAddress(host, 0), spec.payloadBytes(),
                    check);
            serverAddress = server.address();
        }
        List<EchoClient> out = new ArrayList<>();
        for (int i = 0; i < spec.clients(); i++) {
            checkpoint.run();
            EchoClient client = new EchoClient(i, spec, protocol.stream());
            clients.add(new BlockingClient(client, protocol.connect(serverAddress), protocol.stream(), i));
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

    /** Stream: waits until the server has accepted every connection, so both ends are known. */
    private void awaitAccepted() throws InterruptedException {
        if (server == null || !protocol.stream()) {
            return;
        }
        long deadline = System.nanoTime() + SETUP_TIMEOUT.toNanos();
        while (server.ends().size() < clients.size()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("server accepted " + server.ends().size() + " of "
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
        return server == null ? null : server.socketClass();
    }

    @Override
    public String clientChannel() {
        return clients.getFirst().socket().socketClass();
    }

    @Override
    public String serverAddresses() {
        return String.valueOf(clients.getFirst().socket().remoteAddress());
    }

    @Override
    public String clientAddress() {
        return String.valueOf(clients.getFirst().socket().localAddress());
    }

    /** A virtual thread has no fixed thread: it runs on whichever carrier is free. */
    @Override
    public List<Boolean> sameThread() {
        return null;
    }

    @Override
    public Boolean tcpNoDelay() {
        if (!protocol.stream()) {
            return null;
        }
        try {
            boolean all = true;
            for (BlockingClient c : clients) {
                all &= c.socket().tcpNoDelay();
            }
            if (server != null) {
                for (BlockingSocket s : server.ends()) {
                    all &= s.tcpNoDelay();
                }
            }
            return all;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public UdpBuffers udpBuffers() {
        if (protocol.stream()) {
            return null;
        }
        try {
            List<int[]> clientBuffers = new ArrayList<>();
            for (BlockingClient c : clients) {
                clientBuffers.add(c.socket().buffers());
            }
            int[] s = server == null ? null : server.ends().getFirst().buffers();
            return UdpBuffers.applied(s == null ? null : s[0], s == null ? null : s[1], clientBuffers);
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
