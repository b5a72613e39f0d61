package io.loopbench.engine.netty;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.EchoPair;
import io.loopbench.engine.loop.LoopLayout;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.UdpBuffers;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.spec.Transport;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ImmediateEventExecutor;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static io.loopbench.engine.protocol.EchoProtocol.SETUP_TIMEOUT;

/**
 * {@code netty} and {@code reactive} executions: echo servers and clients on the repetition's own event loops
 * ({@link LoopLayout}), each shard's clients connected to its own server, bound, connected and programmed as its
 * execution's {@link NettyEnds} say — through the protocol, as handlers at the end of each pipeline or as Reactor
 * Netty pipelines per message, or through the protocol's own Reactor Netty ends. Used by one thread, the
 * repetition's.
 */
public final class NettyEchoPair implements EchoPair {

    private final RunSpec spec;
    private final Transport transport;
    private final EchoProtocol protocol;
    private final NettyEnds ends;
    /** Run between slow steps of set-up: throws CancellationException once the run is cancelled. */
    private final Runnable checkpoint;
    private LoopLayout layout;
    private final List<DisposableChannel> servers = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private final List<EchoClient> clients = new ArrayList<>();
    /** Stream: server-side child channels by their remote (= the client's local) address. */
    private final Map<SocketAddress, Channel> serverChildren = new ConcurrentHashMap<>();
    /** Stream: every accepted channel, so that close() closes them (disposing a server closes only its listener). */
    private final ChannelGroup accepted = new DefaultChannelGroup(ImmediateEventExecutor.INSTANCE);

    public NettyEchoPair(RunSpec spec, Transport transport, EchoProtocol protocol, NettyEnds ends,
                         Runnable checkpoint) {
        this.spec = spec;
        this.transport = transport;
        this.protocol = protocol;
        this.ends = ends;
        this.checkpoint = checkpoint;
    }

    @Override
    public List<EchoClient> open() throws Exception {
        layout = new LoopLayout(spec.ioModel(), spec.ioThreads(), transport);
        InetSocketAddress target = spec.target() == null ? null
                : Target.parse(spec.target()).orElseThrow().address();
        InetAddress host = spec.addressFamily().loopback();
        if (target == null) {
            for (int shard = 0; shard < layout.shards(); shard++) {
                servers.add(ends.bind(protocol, layout.group(shard), new InetSocketAddress(host, 0),
                        spec.payloadBytes(), accepted, this::served));
            }
        }
        for (int i = 0; i < spec.clients(); i++) {
            checkpoint.run();
            EchoClient client = new EchoClient(i, spec, ends.order(protocol));
            InetSocketAddress server = target != null ? target : new InetSocketAddress(host,
                    ((InetSocketAddress) servers.get(i % servers.size()).address()).getPort());
            connections.add(ends.connect(protocol, layout.groupForClient(i), server, spec.payloadBytes(), client));
            clients.add(client);
        }
        for (EchoClient c : clients) {
            if (!c.awaitAttached(SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("a client pipeline was not ready within " + SETUP_TIMEOUT);
            }
        }
        awaitServerChildren();
        return clients;
    }

    /** Records a server end its execution has programmed. */
    private void served(Connection end) {
        if (protocol.stream()) {
            serverChildren.put(end.channel().remoteAddress(), end.channel());
        }
    }

    @Override
    public String serverAddresses() {
        if (spec.target() != null) {
            return String.valueOf(connections.getFirst().channel().remoteAddress());
        }
        StringBuilder b = new StringBuilder();
        for (DisposableChannel s : servers) {
            b.append(b.isEmpty() ? "" : ", ").append(s.address());
        }
        return b.toString();
    }

    /** Stream: waits until the server has configured every accepted connection, so both ends are known. */
    private void awaitServerChildren() throws InterruptedException {
        if (!protocol.stream() || spec.target() != null) {
            return;
        }
        long deadline = System.nanoTime() + SETUP_TIMEOUT.toNanos();
        while (serverChildren.size() < clients.size()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("server accepted " + accepted.size() + " and configured "
                        + serverChildren.size() + " of " + clients.size() + " connections within "
                        + SETUP_TIMEOUT.toSeconds() + " s; " + unserved());
            }
            checkpoint.run();
            Thread.sleep(1);
        }
    }

    /** Names each client whose server end was never configured, with both ends' state, so that a stall says where. */
    private String unserved() {
        StringBuilder b = new StringBuilder("without a server end:");
        for (int i = 0; i < connections.size(); i++) {
            Channel client = connections.get(i).channel();
            if (serverChildren.containsKey(client.localAddress())) {
                continue;
            }
            Channel server = null;
            for (Channel c : accepted) {
                if (client.localAddress().equals(c.remoteAddress())) {
                    server = c;
                }
            }
            b.append(" client ").append(i).append(" (").append(client.localAddress()).append(", ")
                    .append(state(client)).append("; its server end ")
                    .append(server == null ? "not accepted" : state(server)).append(')');
        }
        return b.toString();
    }

    private static String state(Channel c) {
        SslHandler tls = c.pipeline().get(SslHandler.class);
        return (c.isActive() ? "open" : "closed") + (tls == null ? ""
                : ", TLS handshake " + (tls.handshakeFuture().isDone() ? "done" : "pending, engine "
                        + tls.engine().getHandshakeStatus()))
                + ", autoRead " + c.config().isAutoRead() + ", pipeline " + c.pipeline().names();
    }

    @Override
    public List<Boolean> sameThread() {
        if (spec.target() != null) {
            return null;
        }
        List<Boolean> same = new ArrayList<>(connections.size());
        for (int i = 0; i < connections.size(); i++) {
            Channel client = connections.get(i).channel();
            Channel server = protocol.stream()
                    ? serverChildren.get(client.localAddress())
                    : servers.get(i % servers.size()).channel();
            same.add(server != null && server.eventLoop() == client.eventLoop());
        }
        return same;
    }

    @Override
    public Boolean tcpNoDelay() {
        if (!protocol.stream()) {
            return null;
        }
        boolean all = true;
        for (Connection c : connections) {
            all &= Boolean.TRUE.equals(c.channel().config().getOption(ChannelOption.TCP_NODELAY));
        }
        for (Channel c : serverChildren.values()) {
            all &= Boolean.TRUE.equals(c.config().getOption(ChannelOption.TCP_NODELAY));
        }
        return all;
    }

    @Override
    public UdpBuffers udpBuffers() {
        if (protocol.stream()) {
            return null;
        }
        var serverConfig = servers.isEmpty() ? null : servers.getFirst().channel().config();
        List<int[]> clientBuffers = new ArrayList<>();
        for (Connection c : connections) {
            clientBuffers.add(new int[] {c.channel().config().getOption(ChannelOption.SO_SNDBUF),
                    c.channel().config().getOption(ChannelOption.SO_RCVBUF)});
        }
        return UdpBuffers.applied(serverConfig == null ? null : serverConfig.getOption(ChannelOption.SO_SNDBUF),
                serverConfig == null ? null : serverConfig.getOption(ChannelOption.SO_RCVBUF), clientBuffers);
    }

    @Override
    public int threads() {
        return layout.loops().size();
    }

    @Override
    public String serverChannel() {
        return servers.isEmpty() ? null : servers.getFirst().channel().getClass().getSimpleName();
    }

    @Override
    public String clientChannel() {
        return connections.getFirst().channel().getClass().getSimpleName();
    }

    @Override
    public String clientAddress() {
        return String.valueOf(connections.getFirst().channel().localAddress());
    }

    /** Closes clients, then servers, then the loops; each step bounded, none skipped when another fails. */
    @Override
    public void close() {
        for (EchoClient c : clients) {
            c.markClosing();
        }
        for (Connection c : connections) {
            dispose(c);
        }
        for (DisposableChannel s : servers) {
            dispose(s);
        }
        accepted.close().awaitUninterruptibly(3, TimeUnit.SECONDS);
        if (layout != null) {
            layout.close();
        }
    }

    private static void dispose(DisposableChannel c) {
        try {
            c.disposeNow(Duration.ofSeconds(3));
        } catch (RuntimeException e) {
            // The loops' shutdown closes whatever is left; a slow close must not stop the rest of the clean-up.
        }
    }

}
