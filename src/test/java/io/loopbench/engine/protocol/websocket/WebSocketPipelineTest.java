package io.loopbench.engine.protocol.websocket;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.PhaseContext;
import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.netty.HandlerEnds;
import io.loopbench.engine.netty.NettyEnds;
import io.loopbench.engine.protocol.EchoServerFixture;
import io.loopbench.engine.protocol.RawReads;
import io.loopbench.engine.reactive.ReactiveEnds;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerStats;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.timeline.TimelineRecording;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.netty.Connection;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import static io.loopbench.engine.protocol.EchoServerFixture.ANY_PORT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What goes over the wire for websocket: the upgrade on /echo, then one binary frame per message each way — masked
 * from the client, unmasked from the server — seen as raw bytes at the head of each end's pipeline; a client is
 * handed over only after its upgrade; a request for another path gets 404. Both executions' ends speak it: the netty
 * execution's (Netty's codec handlers) and the reactive execution's (Reactor Netty's HttpServer and HttpClient) echo
 * each other's messages, and count a text frame, a connection closed mid-phase and a failed upgrade alike.
 */
class WebSocketPipelineTest {

    private static final int PAYLOAD = 64;
    private static final int MESSAGES = 5;

    private final WebSocket webSocket = new WebSocket(null);

    @Test
    void oneBinaryFramePerMessageEachWayMaskedFromTheClientAfterTheUpgrade() throws Exception {
        Queue<byte[]> serverReads = new ConcurrentLinkedQueue<>();
        Queue<Integer> serverFrames = new ConcurrentLinkedQueue<>();
        Queue<byte[]> clientReads = new ConcurrentLinkedQueue<>();
        BlockingQueue<ByteBuf> echoes = new LinkedBlockingQueue<>();
        var pipelineAtAttach = new CompletableFuture<List<String>>();
        try (EchoServerFixture server = new EchoServerFixture(webSocket, PAYLOAD, end -> {
            end.channel().pipeline().addFirst("raw", new RawReads(serverReads));
            end.addHandlerLast("echo", new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    if (msg instanceof BinaryWebSocketFrame f) {
                        serverFrames.add(f.content().readableBytes());
                    }
                    ctx.writeAndFlush(msg);
                }
            });
            end.channel().config().setAutoRead(true);
        })) {
            Connection client = webSocket.connect(server.loops, server.address(), PAYLOAD, c -> {
                pipelineAtAttach.complete(c.channel().pipeline().names());
                c.channel().pipeline().addFirst("raw", new RawReads(clientReads));
                c.addHandlerLast("frames", new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        BinaryWebSocketFrame f = (BinaryWebSocketFrame) msg;
                        echoes.add(Unpooled.copiedBuffer(f.content()));
                        f.release();
                    }
                });
            });
            try {
                // Handed over upgraded: the HTTP codec is gone, the WebSocket frame codec in its place.
                assertThat(pipelineAtAttach.get(10, TimeUnit.SECONDS))
                        .noneMatch(n -> n.contains("HttpClientCodec"))
                        .anyMatch(n -> n.toLowerCase().contains("ws-decoder") || n.contains("WebSocket"));
                for (int seq = 0; seq < MESSAGES; seq++) {
                    ByteBuf m = Unpooled.buffer(PAYLOAD);
                    MessageFormat.write(m, MessageFormat.MEASURED_TAG, 1, seq, PAYLOAD);
                    client.channel().writeAndFlush(new BinaryWebSocketFrame(m));
                    ByteBuf echo = echoes.poll(10, TimeUnit.SECONDS);
                    assertThat(echo).isNotNull();
                    assertThat(echo.readableBytes()).isEqualTo(PAYLOAD);
                    assertThat(MessageFormat.hasValidHeader(echo, 0)).isTrue();
                }
            } finally {
                client.disposeNow();
            }
        }
        assertThat(serverFrames).hasSize(MESSAGES).allMatch(n -> n == PAYLOAD);
        // Client to server: FIN + binary, the mask bit and a 4-byte key: 2 + 4 + payload bytes per frame.
        List<byte[]> inbound = serverReads.stream().filter(b -> (b[0] & 0xff) == 0x82).toList();
        assertThat(inbound).hasSize(MESSAGES).allSatisfy(b -> {
            assertThat(b).hasSize(2 + 4 + PAYLOAD);
            assertThat(b[1] & 0xff).isEqualTo(0x80 | PAYLOAD);
        });
        assertThat(new String(serverReads.peek(), StandardCharsets.ISO_8859_1)).startsWith("GET /echo HTTP/1.1");
        // Server to client: FIN + binary, no mask: 2 + payload bytes per frame.
        assertThat(clientReads).hasSize(MESSAGES).allSatisfy(b -> {
            assertThat(b).hasSize(2 + PAYLOAD);
            assertThat(b[0] & 0xff).isEqualTo(0x82);
            assertThat(b[1] & 0xff).isEqualTo(PAYLOAD);
        });
    }

    /** netty × reactive, both ways (and each with itself): server execution, client execution. */
    static List<Arguments> executionPairs() {
        return List.of(Arguments.of("netty", "reactive"), Arguments.of("reactive", "netty"),
                Arguments.of("reactive", "reactive"), Arguments.of("netty", "netty"));
    }

    /**
     * Each execution's server end answers each execution's client end: a phase of echoes, every one validated at both
     * ends, each message one binary frame each way — masked by the client, not by the server — on /echo.
     */
    @ParameterizedTest(name = "{0} server, {1} client")
    @MethodSource("executionPairs")
    void eitherExecutionsServerAnswersEitherExecutionsClient(String serverExecution, String clientExecution)
            throws Exception {
        ServerStats stats = new ServerStats();
        NettyEnds serverEnds = ends(serverExecution, stats);
        Queue<byte[]> serverReads = new ConcurrentLinkedQueue<>();
        Queue<byte[]> clientReads = new ConcurrentLinkedQueue<>();
        PhaseCounts counts;
        try (EchoServerFixture server = new EchoServerFixture((loops, accepted) -> serverEnds.bind(webSocket, loops,
                ANY_PORT, PAYLOAD, accepted, end -> end.channel().pipeline().addFirst("raw", new RawReads(serverReads))))) {
            EchoClient client = client();
            Connection c = ends(clientExecution, new ServerStats()).connect(webSocket, server.loops,
                    server.address(), PAYLOAD, client);
            try {
                assertThat(client.awaitAttached(10, TimeUnit.SECONDS)).isTrue();
                c.channel().pipeline().addFirst("raw", new RawReads(clientReads));

                counts = phase(client, 300);
            } finally {
                client.markClosing();
                c.disposeNow();
            }
        }

        assertThat(counts.messages()).as(counts.firstError()).isPositive().isEqualTo(counts.messagesSent());
        assertThat(counts.firstError()).isNull();
        assertThat(stats.firstError()).isNull();
        assertThat(stats.contentErrors(MessageFormat.MEASURED_TAG) + stats.exceptions(MessageFormat.MEASURED_TAG))
                .isZero();
        // The netty server's raw handler joins before the upgrade, the reactive one's after it.
        byte[] toServer = concat(serverReads);
        String head = new String(toServer, StandardCharsets.ISO_8859_1);
        if (head.startsWith("GET")) {
            assertThat(head).startsWith("GET /echo HTTP/1.1\r\n").containsIgnoringCase("upgrade: websocket");
            toServer = Arrays.copyOfRange(toServer, head.indexOf("\r\n\r\n") + 4, toServer.length);
        }
        assertThat(binaryFrames(toServer, true)).isEqualTo(counts.messagesSent());
        assertThat(binaryFrames(concat(clientReads), false)).isEqualTo(counts.messages());
    }

    /** A text frame carries no message: either execution's server counts it, releases it and goes on echoing. */
    @ParameterizedTest
    @ValueSource(strings = {"netty", "reactive"})
    void eitherExecutionsServerCountsATextFrameAndGoesOn(String execution) throws Exception {
        ServerStats stats = new ServerStats();
        NettyEnds ends = ends(execution, stats);
        BlockingQueue<ByteBuf> echoes = new LinkedBlockingQueue<>();
        try (EchoServerFixture server = new EchoServerFixture((loops, accepted) -> ends.bind(webSocket, loops,
                ANY_PORT, PAYLOAD, accepted, end -> { }))) {
            Connection client = webSocket.connect(server.loops, server.address(), PAYLOAD, c ->
                    c.addHandlerLast("frames", new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            echoes.add(Unpooled.copiedBuffer(((BinaryWebSocketFrame) msg).content()));
                            ReferenceCountUtil.release(msg);
                        }
                    }));
            try {
                client.channel().writeAndFlush(new TextWebSocketFrame("not a message"));
                ByteBuf m = Unpooled.buffer(PAYLOAD);
                MessageFormat.write(m, MessageFormat.MEASURED_TAG, 1, 0, PAYLOAD);
                client.channel().writeAndFlush(new BinaryWebSocketFrame(m));

                ByteBuf echo = echoes.poll(10, TimeUnit.SECONDS);
                assertThat(echo).isNotNull();
                assertThat(MessageFormat.hasValidHeader(echo, 0)).isTrue();
            } finally {
                client.disposeNow();
            }
        }
        assertThat(stats.contentErrors(MessageFormat.MEASURED_TAG)).isEqualTo(1);
        assertThat(stats.firstError()).contains("refused a TextWebSocketFrame");
        assertThat(echoes).isEmpty();
    }

    /**
     * A server answering each message with a text frame: either execution's client counts each one, and the messages
     * they leave unanswered are unfinished.
     */
    @ParameterizedTest
    @ValueSource(strings = {"netty", "reactive"})
    void eitherExecutionsClientCountsATextFrame(String execution) throws Exception {
        PhaseCounts counts = againstNettyServer(execution, (ctx, frame) -> {
            frame.release();
            ctx.writeAndFlush(new TextWebSocketFrame("not an echo"));
        });

        assertThat(counts.messages()).isZero();
        assertThat(counts.contentErrors()).isEqualTo(counts.messagesSent()).isPositive();
        assertThat(counts.unfinishedMessages()).isEqualTo(counts.messagesSent());
        assertThat(counts.firstError()).contains("a TextWebSocketFrame instead of an echo");
    }

    /** A server closing the connection mid-phase: either execution's client counts one disconnection. */
    @ParameterizedTest
    @ValueSource(strings = {"netty", "reactive"})
    void eitherExecutionsClientCountsAConnectionClosedMidPhase(String execution) throws Exception {
        AtomicInteger received = new AtomicInteger();
        PhaseCounts counts = againstNettyServer(execution, (ctx, frame) -> {
            if (received.incrementAndGet() <= 3) {
                ctx.writeAndFlush(frame);
            } else {
                frame.release();
                ctx.close();
            }
        });

        assertThat(counts.disconnectErrors()).as(counts.firstError()).isEqualTo(1);
        assertThat(counts.messages()).isEqualTo(3);
        assertThat(counts.unfinishedMessages()).isEqualTo(counts.messagesSent() - 3).isPositive();
    }

    /** A server that refuses the upgrade: either execution's client fails its set-up, naming the URI. */
    @ParameterizedTest
    @ValueSource(strings = {"netty", "reactive"})
    void eitherExecutionsClientFailsAnUpgradeTheServerRefuses(String execution) throws Exception {
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (ServerSocket refusing = new ServerSocket(0, 1, ANY_PORT.getAddress())) {
            Thread answer = Thread.ofVirtual().start(() -> {
                try (Socket s = refusing.accept()) {
                    readRequest(s.getInputStream());
                    OutputStream out = s.getOutputStream();
                    out.write("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    s.getInputStream().read(); // until the client closes
                } catch (Exception e) {
                    // the assertions below say what went wrong
                }
            });
            EchoClient client = client();
            var server = new InetSocketAddress("127.0.0.1", refusing.getLocalPort());

            assertThatThrownBy(() -> ends(execution, new ServerStats()).connect(webSocket, loops, server,
                    PAYLOAD, client))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("WebSocket upgrade on ws://127.0.0.1:" + refusing.getLocalPort()
                            + "/echo failed")
                    .hasMessageContaining("404");
            assertThat(answer.join(Duration.ofSeconds(10))).isTrue();
            assertThat(client.awaitAttached(0, TimeUnit.SECONDS)).isFalse();
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty", "reactive"})
    void anotherPathGets404(String execution) throws Exception {
        NettyEnds ends = ends(execution, new ServerStats());
        try (EchoServerFixture server = new EchoServerFixture((loops, accepted) -> ends.bind(webSocket, loops,
                ANY_PORT, PAYLOAD, accepted, end -> { }));
             Socket plain = new Socket()) {
            plain.connect(server.address(), 5000);
            plain.setSoTimeout(5000);
            plain.getOutputStream().write(("GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            String response = readRequest(plain.getInputStream());
            assertThat(response).startsWith("HTTP/1.1 404");
        }
    }

    /** An execution's ends, its servers counting into {@code stats}. */
    private static NettyEnds ends(String execution, ServerStats stats) {
        ServerCheck check = new ServerCheck(0, stats);
        return execution.equals("netty") ? new HandlerEnds(PAYLOAD, check, null, new WebSocket(null))
                : new ReactiveEnds(PAYLOAD, true, check);
    }

    private static EchoClient client() {
        return new EchoClient(0, RunSpec.builder().protocol(Protocol.WEBSOCKET).payloadBytes(PAYLOAD).window(4)
                .build(), true);
    }

    /** Runs one phase of a client against a netty server whose every binary frame {@code answer} handles. */
    private PhaseCounts againstNettyServer(String clientExecution,
                                           BiConsumer<ChannelHandlerContext, BinaryWebSocketFrame> answer)
            throws Exception {
        Consumer<Connection> ends = end -> {
            end.addHandlerLast("answer", new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    answer.accept(ctx, (BinaryWebSocketFrame) msg);
                }
            });
            end.channel().config().setAutoRead(true); // Reactor Netty reads on demand; this end reads all
        };
        try (EchoServerFixture server = new EchoServerFixture(webSocket, PAYLOAD, ends)) {
            EchoClient client = client();
            Connection c = ends(clientExecution, new ServerStats()).connect(webSocket, server.loops,
                    server.address(), PAYLOAD, client);
            try {
                assertThat(client.awaitAttached(10, TimeUnit.SECONDS)).isTrue();
                return phase(client, 300);
            } finally {
                client.markClosing();
                c.disposeNow();
            }
        }
    }

    /**
     * One measured phase of {@code millis} for one client, as the repetition's PhaseRunner runs it: begin, stop, wait
     * (bounded) for the drain, finish; its counts read on its loop.
     */
    private static PhaseCounts phase(EchoClient client, long millis) throws Exception {
        CountDownLatch drained = new CountDownLatch(1);
        long started = System.nanoTime();
        TimelineRecording timeline = new TimelineRecording("measured", null, TimeUnit.MILLISECONDS.toNanos(100),
                millis / 1000.0, (interval, rtt) -> { });
        timeline.recorder(client.histogramOwner());
        PhaseContext phase = new PhaseContext(MessageFormat.MEASURED_TAG, started,
                started + TimeUnit.MILLISECONDS.toNanos(millis), drained, timeline.recorders(), Map.of(), Map.of(),
                Map.of(client.histogramOwner(), io.loopbench.engine.latency.LatencyHistograms.create()));
        client.executor().execute(() -> client.begin(phase));
        Thread.sleep(millis);
        client.executor().execute(client::stop);
        drained.await(2, TimeUnit.SECONDS); // a client left waiting for echoes finishes them as unfinished
        CompletableFuture.runAsync(client::finish, client.executor()).get(10, TimeUnit.SECONDS);
        return CompletableFuture.supplyAsync(() -> client.counts(MessageFormat.MEASURED_TAG), client.executor())
                .get(10, TimeUnit.SECONDS);
    }

    private static byte[] concat(Queue<byte[]> reads) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        reads.forEach(all::writeBytes);
        return all.toByteArray();
    }

    /**
     * Counts the frames in {@code bytes}, each a final binary frame of the payload, masked or not as said, but for a
     * close frame at the end (the connection's disposal).
     */
    private static int binaryFrames(byte[] bytes, boolean masked) {
        int frames = 0;
        int at = 0;
        while (at < bytes.length) {
            int length = bytes[at + 1] & 0x7f;
            assertThat(bytes[at + 1] & 0x80).as("mask bit at %d", at).isEqualTo(masked ? 0x80 : 0);
            int next = at + 2 + (masked ? 4 : 0) + length;
            if ((bytes[at] & 0xff) == 0x88) { // FIN + close
                assertThat(next).as("a close frame ends the connection").isEqualTo(bytes.length);
            } else {
                assertThat(bytes[at] & 0xff).as("FIN + binary at %d", at).isEqualTo(0x82);
                assertThat(length).isEqualTo(PAYLOAD);
                frames++;
            }
            at = next;
        }
        assertThat(at).isEqualTo(bytes.length);
        return frames;
    }

    /** An HTTP/1.1 head read up to its blank line. */
    private static String readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int b;
        while (!head.toString().endsWith("\r\n\r\n") && (b = in.read()) != -1) {
            head.append((char) b);
        }
        return head.toString();
    }
}
