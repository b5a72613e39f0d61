package io.loopbench.engine;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.resolver.DefaultAddressResolverGroup;
import org.HdrHistogram.Histogram;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;
import reactor.netty.tcp.TcpClient;
import reactor.netty.udp.UdpClient;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One repetition, run by one thread from start to end: builds its own loops, binds its servers on port 0,
 * connects its clients one at a time, runs warm-up then the measured phase, and releases everything it created
 * — on success, failure and cancellation alike.
 */
final class Repetition {

    static final Duration SETUP_TIMEOUT = Duration.ofSeconds(10);
    static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(2);
    static final long BARRIER_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final RunSpec spec;
    private final int index;
    private final Transport transport;
    private final ServerFault fault;
    private final ProgressListener progress;
    private final RunControl control;

    private final ServerStats serverStats = new ServerStats();
    private final List<DisposableChannel> servers = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private final List<EchoClient> clients = new ArrayList<>();
    /** TCP: server-side child channels by their remote (= the client's local) address. */
    private final Map<SocketAddress, Channel> serverChildren = new ConcurrentHashMap<>();
    /** TCP: every accepted channel, so that release() closes them (disposing a server closes only its listener). */
    private final ChannelGroup accepted = new DefaultChannelGroup(ImmediateEventExecutor.INSTANCE);

    Repetition(RunSpec spec, int index, Transport transport, ServerFault fault, ProgressListener progress,
               RunControl control) {
        this.spec = spec;
        this.index = index;
        this.transport = transport;
        this.fault = fault;
        this.progress = progress;
        this.control = control;
    }

    RepetitionResult run() {
        LoopLayout layout = null;
        try {
            layout = new LoopLayout(spec.ioModel(), spec.ioThreads(), transport);
            InetSocketAddress target = spec.target() == null ? null
                    : Target.parse(spec.target()).orElseThrow().address();
            InetAddress host = loopback(spec.addressFamily());
            if (target == null) {
                for (int shard = 0; shard < layout.shards(); shard++) {
                    servers.add(bind(layout.group(shard), host));
                }
            }
            for (int i = 0; i < spec.clients(); i++) {
                control.throwIfCancelled();
                EchoClient client = new EchoClient(i, spec);
                InetSocketAddress server = target != null ? target : new InetSocketAddress(host,
                        ((InetSocketAddress) servers.get(i % servers.size()).address()).getPort());
                connections.add(connect(layout.groupForClient(i), server, client));
                clients.add(client);
            }
            for (EchoClient c : clients) {
                if (!c.awaitAdded(SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("a client pipeline was not ready within " + SETUP_TIMEOUT);
                }
            }
            awaitServerChildren();
            return measure(layout);
        } catch (CancellationException e) {
            throw e;
        } catch (Exception e) {
            return RepetitionResult.setupFailed(index, transport, spec.ioThreads(), "set-up failed: " + e);
        } finally {
            release(layout);
        }
    }

    private RepetitionResult measure(LoopLayout layout) throws Exception {
        PhaseOutcome warmup = null;
        if (spec.warmupSeconds() > 0) {
            progress.phaseStarted(index, "warmup", spec.warmupSeconds());
            warmup = runPhase(MessageFormat.WARMUP_TAG, spec.warmupSeconds(), Map.of(), Map.of());
        }
        boolean open = spec.load() == LoadModel.OPEN;
        Map<EventLoop, Histogram> histograms = new HashMap<>();
        Map<EventLoop, Histogram> uncorrected = new HashMap<>();
        for (EventLoop loop : layout.loops()) {
            histograms.put(loop, new Histogram(EchoClient.MAX_TRACKED_NANOS, 3));
            if (open) {
                uncorrected.put(loop, new Histogram(EchoClient.MAX_TRACKED_NANOS, 3));
            }
        }
        progress.phaseStarted(index, "measured", spec.seconds());
        PhaseOutcome measured = runPhase(MessageFormat.MEASURED_TAG, spec.seconds(), histograms, uncorrected);
        MemoryUsage memory = ProcessMetrics.memory();

        Histogram all = merged(histograms);
        PhaseCounters m = sum(MessageFormat.MEASURED_TAG);
        ErrorCounts errors = errors(m, MessageFormat.MEASURED_TAG, measured.drainTimedOut());
        double elapsed = measured.elapsedNanos() / 1e9;
        WarmupResult warmupResult = null;
        String error = null;
        if (warmup != null) {
            PhaseCounters w = sum(MessageFormat.WARMUP_TAG);
            ErrorCounts warmupErrors = errors(w, MessageFormat.WARMUP_TAG, warmup.drainTimedOut());
            warmupResult = new WarmupResult(warmup.elapsedNanos() / 1e9, w.messages, warmupErrors);
            if (warmupErrors.total() > 0) {
                error = "warmup: " + warmupErrors.describeNonZero() + firstError(w);
            } else if (w.messages == 0) {
                error = "warmup: no echo completed";
            }
        }
        if (error == null && errors.total() > 0) {
            error = "measured phase: " + errors.describeNonZero() + firstError(m);
        } else if (error == null && m.messages == 0) {
            error = "measured phase: no echo completed";
        }
        boolean batchRtt = spec.windowMode() == WindowMode.BATCH && spec.window() > 1;
        Latency latency = latency(batchRtt ? LatencyMode.BATCH : LatencyMode.MESSAGE, all);
        Latency uncorrectedLatency = open ? latency(LatencyMode.MESSAGE, merged(uncorrected)) : null;
        OpenLoad openLoad = open ? new OpenLoad(spec.rate(), m.intendedMessages, m.lateMessages, m.droppedMessages)
                : null;
        double cpuSeconds = measured.cpuNanos() / 1e9;
        Channel client = connections.getFirst().channel();
        boolean remote = spec.target() != null;
        return new RepetitionResult(index, error == null, error, transport,
                remote ? null : servers.getFirst().channel().getClass().getSimpleName(),
                client.getClass().getSimpleName(), serverAddresses(), String.valueOf(client.localAddress()), remote,
                spec.ioThreads(), remote ? null : connectionsOnOneThread(), tcpNoDelay(), udpBuffers(),
                elapsed, m.messagesSent, m.messages, m.messages / elapsed,
                2.0 * spec.payloadBytes() * m.messages / elapsed / (1 << 20),
                latency, new CpuUsage(cpuSeconds, elapsed, cpuSeconds / elapsed * 100), memory,
                new GcActivity(measured.gcCollections(), measured.gcMillis()), errors, warmupResult,
                uncorrectedLatency, openLoad);
    }

    private static Histogram merged(Map<EventLoop, Histogram> perLoop) {
        Histogram all = new Histogram(EchoClient.MAX_TRACKED_NANOS, 3);
        perLoop.values().forEach(all::add);
        return all;
    }

    private static Latency latency(LatencyMode mode, Histogram h) {
        return new Latency(mode, h.getTotalCount(), micros(h.getValueAtPercentile(50)),
                micros(h.getValueAtPercentile(90)), micros(h.getValueAtPercentile(95)),
                micros(h.getValueAtPercentile(99)), micros(h.getValueAtPercentile(99.9)), micros(h.getMaxValue()),
                h.getMean() / 1000.0);
    }

    private record PhaseOutcome(long elapsedNanos, long cpuNanos, long gcCollections, long gcMillis,
                                boolean drainTimedOut) {
    }

    /**
     * arknet's phase: start every client, sleep to the deadline, tell the clients to stop, wait at most 2 s for
     * them to drain, then run a barrier task on each client's loop that force-finishes it. Elapsed time and CPU
     * cover the phase, the drain and the barrier.
     */
    private PhaseOutcome runPhase(byte tag, double seconds, Map<EventLoop, Histogram> histograms,
                                  Map<EventLoop, Histogram> uncorrected) throws Exception {
        CountDownLatch drained = new CountDownLatch(clients.size());
        long[] gc0 = ProcessMetrics.gc();
        long cpu0 = ProcessMetrics.cpuNanos();
        long started = System.nanoTime();
        long deadline = started + (long) (seconds * 1e9);
        PhaseContext phase = new PhaseContext(tag, started, deadline, drained, histograms, uncorrected);
        for (EchoClient c : clients) {
            c.eventLoop().execute(() -> c.begin(phase));
        }
        try {
            control.sleepUntil(deadline);
        } finally {
            for (EchoClient c : clients) {
                c.eventLoop().execute(c::stop);
            }
        }
        boolean drainTimedOut = !drained.await(Math.max(0, deadline + DRAIN_NANOS - System.nanoTime()),
                TimeUnit.NANOSECONDS);
        List<Future<?>> barrier = new ArrayList<>();
        for (EchoClient c : clients) {
            barrier.add(c.eventLoop().submit(c::finish));
        }
        long barrierDeadline = System.nanoTime() + BARRIER_NANOS;
        for (Future<?> f : barrier) {
            try {
                f.get(Math.max(0, barrierDeadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("client IO barrier timed out", e);
            }
        }
        long elapsed = System.nanoTime() - started;
        long cpu1 = ProcessMetrics.cpuNanos();
        long[] gc1 = ProcessMetrics.gc();
        return new PhaseOutcome(elapsed, cpu1 - cpu0, gc1[0] - gc0[0], gc1[1] - gc0[1], drainTimedOut);
    }

    private DisposableChannel bind(EventLoopGroup group, InetAddress host) {
        return EchoServers.bind(spec.protocol(), group, new InetSocketAddress(host, 0), this::serverHandler, accepted,
                c -> serverChildren.put(c.channel().remoteAddress(), c.channel()), spec.payloadBytes());
    }

    private Connection connect(EventLoopGroup group, InetSocketAddress server, EchoClient client) {
        if (spec.protocol() == Protocol.UDP) {
            return UdpClient.create()
                    .remoteAddress(() -> server)
                    .runOn(group)
                    .option(ChannelOption.SO_RCVBUF, EchoServers.UDP_RECEIVE_BUFFER)
                    .option(ChannelOption.SO_SNDBUF, EchoServers.UDP_SEND_BUFFER)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(spec.payloadBytes() + 1))
                    .doOnConnected(c -> c.addHandlerLast("echo", client))
                    .connectNow(SETUP_TIMEOUT);
        }
        return TcpClient.newConnection()
                .remoteAddress(() -> server)
                .resolver(DefaultAddressResolverGroup.INSTANCE)
                .runOn(group)
                .option(ChannelOption.TCP_NODELAY, true)
                .doOnConnected(c -> c.addHandlerLast("echo", client))
                .connectNow(SETUP_TIMEOUT);
    }

    private EchoServerHandler serverHandler() {
        return new EchoServerHandler(spec.payloadBytes(), spec.work(), serverStats, fault);
    }

    /** Where the echoes came from: this repetition's servers, or the target. */
    private String serverAddresses() {
        if (spec.target() != null) {
            return String.valueOf(connections.getFirst().channel().remoteAddress());
        }
        StringBuilder b = new StringBuilder();
        for (DisposableChannel s : servers) {
            b.append(b.isEmpty() ? "" : ", ").append(s.address());
        }
        return b.toString();
    }

    /** TCP: waits until the server has configured every accepted connection, so both ends are known. */
    private void awaitServerChildren() throws InterruptedException {
        if (spec.protocol() != Protocol.TCP || spec.target() != null) {
            return;
        }
        long deadline = System.nanoTime() + SETUP_TIMEOUT.toNanos();
        while (serverChildren.size() < clients.size()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("server accepted " + serverChildren.size() + " of "
                        + clients.size() + " connections within " + SETUP_TIMEOUT.toSeconds() + " s");
            }
            control.throwIfCancelled();
            Thread.sleep(1);
        }
    }

    private int connectionsOnOneThread() {
        int same = 0;
        for (int i = 0; i < connections.size(); i++) {
            Channel client = connections.get(i).channel();
            Channel server = spec.protocol() == Protocol.TCP
                    ? serverChildren.get(client.localAddress())
                    : servers.get(i % servers.size()).channel();
            if (server != null && server.eventLoop() == client.eventLoop()) {
                same++;
            }
        }
        return same;
    }

    private Boolean tcpNoDelay() {
        if (spec.protocol() != Protocol.TCP) {
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

    private UdpBuffers udpBuffers() {
        if (spec.protocol() != Protocol.UDP) {
            return null;
        }
        var serverConfig = servers.isEmpty() ? null : servers.getFirst().channel().config();
        int sendMin = Integer.MAX_VALUE;
        int sendMax = 0;
        int receiveMin = Integer.MAX_VALUE;
        int receiveMax = 0;
        for (Connection c : connections) {
            int send = c.channel().config().getOption(ChannelOption.SO_SNDBUF);
            int receive = c.channel().config().getOption(ChannelOption.SO_RCVBUF);
            sendMin = Math.min(sendMin, send);
            sendMax = Math.max(sendMax, send);
            receiveMin = Math.min(receiveMin, receive);
            receiveMax = Math.max(receiveMax, receive);
        }
        return new UdpBuffers(EchoServers.UDP_SEND_BUFFER, EchoServers.UDP_RECEIVE_BUFFER,
                serverConfig == null ? null : serverConfig.getOption(ChannelOption.SO_SNDBUF),
                serverConfig == null ? null : serverConfig.getOption(ChannelOption.SO_RCVBUF),
                sendMin, sendMax, receiveMin, receiveMax);
    }

    private PhaseCounters sum(byte tag) {
        PhaseCounters total = new PhaseCounters();
        for (EchoClient c : clients) {
            total.add(c.counters(tag));
        }
        return total;
    }

    private ErrorCounts errors(PhaseCounters c, byte tag, boolean drainTimedOut) {
        return new ErrorCounts(c.contentErrors + serverStats.contentErrors[tag].sum(), c.orderErrors,
                c.unexpectedMessages, c.disconnectErrors, c.lostMessages, c.unfinishedMessages, c.sendFailures,
                serverStats.sendFailures[tag].sum(), c.exceptions + serverStats.exceptions[tag].sum(),
                drainTimedOut ? 1 : 0);
    }

    private String firstError(PhaseCounters c) {
        String first = c.firstError != null ? c.firstError : serverStats.firstError();
        return first == null ? "" : " (first: " + first + ")";
    }

    /** Closes clients, then servers, then the loops; each step bounded, none skipped when another fails. */
    private void release(LoopLayout layout) {
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

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }

    static InetAddress loopback(AddressFamily family) throws UnknownHostException {
        return InetAddress.getByName(family == AddressFamily.IPV4 ? "127.0.0.1" : "::1");
    }
}
