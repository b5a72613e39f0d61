package io.loopbench.engine.protocol.http;

import io.loopbench.engine.EngineTestSupport;
import io.loopbench.engine.ErrorCounts;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.protocol.EchoServerFixture;
import io.loopbench.engine.protocol.Holding;
import io.loopbench.engine.protocol.MessageFraming;
import io.loopbench.engine.protocol.RawReads;
import io.loopbench.engine.server.EchoServerHandler;
import io.loopbench.engine.offload.OffloadPool;
import io.loopbench.engine.server.ReactiveEcho;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerStats;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.netty.Connection;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What goes over the wire for http: each message one {@code POST /echo} HTTP/1.1 request with {@code Host} and
 * {@code Content-Length}, pipelined, each answered in order by a {@code 200} with the same body, read as raw bytes at
 * the head of each end's pipeline; the engine's client keeping its window in flight; what the server refuses,
 * answered so that the pipeline stays in step — by the netty execution's server and by the reactive one, Reactor
 * Netty's HttpServer; the reactive client, Reactor Netty's HttpClient, sending one request at a time.
 */
class HttpPipelineTest {

    private static final int PAYLOAD = 64;
    private static final int MESSAGES = 5;

    private final Http http = new Http(null);
    private final ServerStats stats = new ServerStats();
    private final ServerCheck check = new ServerCheck(0, stats);
    /** Raw reads at the head of the server end's pipeline. */
    private final Queue<byte[]> serverReads = new ConcurrentLinkedQueue<>();
    private EchoServerFixture server;

    /** Binds the execution's echo server: the netty execution's handler, or Reactor Netty's HttpServer. */
    private void bind(Execution execution) {
        server = execution == Execution.NETTY
                ? new EchoServerFixture(http, PAYLOAD, end -> {
                    end.channel().pipeline().addFirst("raw", new RawReads(serverReads));
                    end.addHandlerLast("echo", new EchoServerHandler(PAYLOAD, check, null,
                            http.framing((InetSocketAddress) end.channel().localAddress(), PAYLOAD)));
                })
                : new EchoServerFixture((loops, accepted) -> http.bindRequests(loops, EchoServerFixture.ANY_PORT,
                        PAYLOAD, accepted, end -> end.channel().pipeline().addFirst("raw", new RawReads(serverReads)),
                        (request, response) -> ReactiveEcho.http(request, response, check, OffloadPool.none()),
                        check::refused));
    }

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Execution.class, names = {"NETTY", "REACTIVE"})
    void eachMessageIsOnePostPipelinedAndAnsweredInOrderWith200AndTheSameBody(Execution execution) throws Exception {
        bind(execution);
        Queue<byte[]> clientReads = new ConcurrentLinkedQueue<>();
        BlockingQueue<FullHttpResponse> responses = new LinkedBlockingQueue<>();
        Connection client = http.connect(server.loops, server.address(), PAYLOAD, c -> {
            c.channel().pipeline().addFirst("raw", new RawReads(clientReads));
            c.addHandlerLast("responses", new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    responses.add(((FullHttpResponse) msg).retainedDuplicate());
                    ReferenceCountUtil.release(msg);
                }
            });
            c.channel().config().setAutoRead(true); // Reactor Netty reads on demand; an echo end reads at once
        });
        MessageFraming framing = http.framing(server.address(), PAYLOAD);
        try {
            // Every request written before any response is read: one flush for all.
            for (int seq = 0; seq < MESSAGES; seq++) {
                client.channel().write(framing.wrap(message(seq)));
            }
            client.channel().flush();
            for (int seq = 0; seq < MESSAGES; seq++) {
                FullHttpResponse r = responses.poll(10, TimeUnit.SECONDS);
                assertThat(r).as("response %d", seq).isNotNull();
                try {
                    assertThat(r.status().code()).isEqualTo(200);
                    assertThat(ByteBufUtil.getBytes(r.content())).isEqualTo(ByteBufUtil.getBytes(message(seq)));
                } finally {
                    r.release();
                }
            }
        } finally {
            client.disposeNow();
        }

        String host = "127.0.0.1:" + server.address().getPort();
        List<Message> requests = parse(serverReads);
        assertThat(requests).hasSize(MESSAGES);
        for (int seq = 0; seq < MESSAGES; seq++) {
            Message m = requests.get(seq);
            assertThat(m.startLine()).isEqualTo("POST /echo HTTP/1.1");
            assertThat(m.headers()).containsEntry("host", host).containsEntry("content-length", "" + PAYLOAD);
            assertThat(m.body()).isEqualTo(ByteBufUtil.getBytes(message(seq)));
        }
        List<Message> echoes = parse(clientReads);
        assertThat(echoes).hasSize(MESSAGES);
        for (int seq = 0; seq < MESSAGES; seq++) {
            Message m = echoes.get(seq);
            assertThat(m.startLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(m.headers()).containsEntry("content-length", "" + PAYLOAD);
            assertThat(m.body()).isEqualTo(ByteBufUtil.getBytes(message(seq)));
        }
        assertThat(stats.contentErrors(MessageFormat.MEASURED_TAG)).isZero();
    }

    /**
     * The engine's client pipelines its window: a server that answers only once {@code window} requests wait sees
     * {@code window} of them, never more, again and again; the run still validates every echo, in order.
     */
    @Test
    void theClientKeepsItsWindowOfRequestsInFlightBeforeAnyResponse() {
        bind(Execution.NETTY);
        int window = 8;
        AtomicInteger mostHeld = new AtomicInteger();
        AtomicInteger fullBatches = new AtomicInteger();
        try (EchoServerFixture holding = new EchoServerFixture(http, PAYLOAD, end -> {
            MessageFraming framing = http.framing((InetSocketAddress) end.channel().localAddress(), PAYLOAD);
            end.addHandlerLast("hold", new Holding(framing, window, mostHeld, fullBatches));
            end.channel().config().setAutoRead(true);
        })) {
            RunSpec spec = RunSpec.builder().protocol(Protocol.HTTP).payloadBytes(PAYLOAD).clients(1).window(window)
                    .ioThreads(1).warmupSeconds(0.0).seconds(0.5).repetitions(1)
                    .target("127.0.0.1:" + holding.address().getPort()).build();

            RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

            assertThat(r.checks().errors().total()).as(r.error()).isZero();
            assertThat(r.throughput().messages()).isPositive().isEqualTo(r.throughput().messagesSent());
        }
        assertThat(mostHeld.get()).isEqualTo(window);
        assertThat(fullBatches.get()).isGreaterThan(10);
    }

    /**
     * Reactor Netty's HttpServer answers pipelined requests one after another, in order: the netty execution's client,
     * 16 requests in flight on each connection, gets every echo back, validated.
     */
    @Test
    void theReactiveServerAnswersTheNettyClientsPipelinedWindow() {
        bind(Execution.REACTIVE);
        RunSpec spec = RunSpec.builder().protocol(Protocol.HTTP).payloadBytes(PAYLOAD).clients(2).window(16)
                .ioThreads(1).warmupSeconds(0.0).seconds(0.5).repetitions(1)
                .target("127.0.0.1:" + server.address().getPort()).build();

        RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

        assertThat(r.checks().errors().total()).as(r.error()).isZero();
        assertThat(r.throughput().messages()).isGreaterThan(16).isEqualTo(r.throughput().messagesSent());
        assertThat(stats.contentErrors(MessageFormat.MEASURED_TAG)).isZero();
        assertThat(stats.exceptions(MessageFormat.MEASURED_TAG)).isZero();
    }

    /**
     * The reactive client, Reactor Netty's HttpClient: every message one {@code POST /echo} with {@code Host} and
     * {@code Content-Length}, one at a time — a server that would hold two never sees more than one — on one
     * keep-alive connection, opened by one set-up request before the phases.
     */
    @Test
    void theReactiveClientSendsOnePostAtATimeOnOneKeepAliveConnection() throws Exception {
        AtomicInteger mostHeld = new AtomicInteger();
        AtomicInteger fullBatches = new AtomicInteger();
        AtomicInteger connections = new AtomicInteger();
        RepetitionResult r;
        try (EchoServerFixture holding = new EchoServerFixture(http, PAYLOAD, end -> {
            connections.incrementAndGet();
            end.channel().pipeline().addFirst("raw", new RawReads(serverReads));
            MessageFraming framing = http.framing((InetSocketAddress) end.channel().localAddress(), PAYLOAD);
            end.addHandlerLast("hold", new Holding(framing, 2, mostHeld, fullBatches));
            end.channel().config().setAutoRead(true);
        })) {
            RunSpec spec = RunSpec.builder().protocol(Protocol.HTTP).execution(Execution.REACTIVE)
                    .payloadBytes(PAYLOAD).clients(1).window(1).ioThreads(1).warmupSeconds(0.0).seconds(0.5)
                    .repetitions(1).target("127.0.0.1:" + holding.address().getPort()).build();

            r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

            assertThat(r.checks().errors().total()).as(r.error()).isZero();
            assertThat(r.throughput().messages()).isPositive().isEqualTo(r.throughput().messagesSent());
        }
        assertThat(mostHeld.get()).isEqualTo(1);
        assertThat(fullBatches.get()).isZero();
        assertThat(connections.get()).isEqualTo(1);
        String host = "127.0.0.1:" + r.setup().serverAddress()
                .substring(r.setup().serverAddress().lastIndexOf(':') + 1);
        List<Message> requests = parse(serverReads);
        // and the set-up's, and the warm-up's
        assertThat((long) requests.size()).isGreaterThan(r.throughput().messagesSent());
        for (Message m : requests) {
            assertThat(m.startLine()).isEqualTo("POST /echo HTTP/1.1");
            assertThat(m.headers()).containsEntry("host", host).containsEntry("content-length", "" + PAYLOAD);
            assertThat(m.headers()).doesNotContainKey("transfer-encoding");
        }
    }

    /**
     * A connection the server closes in the middle of the window, partway through an echo, is a disconnect and its
     * messages in flight unfinished — for http exactly as for tcp: no exception, no content error.
     */
    @ParameterizedTest
    @EnumSource(value = Protocol.class, names = {"TCP", "HTTP"})
    void aConnectionClosedMidWindowIsADisconnectAsOnTcp(Protocol protocol) throws Exception {
        int window = 4;
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread server = Thread.ofVirtual().start(() -> echoThenCloseMidEcho(listener, protocol == Protocol.HTTP));
            RunSpec spec = RunSpec.builder().protocol(protocol).payloadBytes(PAYLOAD).clients(1).window(window)
                    .ioThreads(1).warmupSeconds(0.0).seconds(1.0).repetitions(1)
                    .target("127.0.0.1:" + listener.getLocalPort()).build();

            RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

            server.join(5000);
            ErrorCounts e = r.checks().errors();
            assertThat(e.disconnectErrors()).as(r.error()).isEqualTo(1);
            assertThat(e.unfinishedMessages()).isBetween(1L, (long) window);
            assertThat(e.total()).as(e.toString()).isEqualTo(e.disconnectErrors() + e.unfinishedMessages());
            assertThat(r.throughput().messages()).isEqualTo(20);
            assertThat(r.error()).contains("client 0 disconnected during the phase");
        }
    }

    /** Echoes 20 messages of one connection, then sends the first half of the next echo and ends the connection. */
    private static void echoThenCloseMidEcho(ServerSocket listener, boolean http) {
        try (Socket s = listener.accept()) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < 20; i++) {
                byte[] body = http ? Message.read(in).body() : in.readNBytes(PAYLOAD);
                if (http) {
                    out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                }
                out.write(body);
            }
            byte[] next = http ? "HTTP/1.1 200 OK\r\nContent-Le".getBytes(StandardCharsets.ISO_8859_1)
                    : Arrays.copyOf(in.readNBytes(PAYLOAD), PAYLOAD / 2);
            out.write(next);
            out.flush();
            // A clean end (FIN): the client's requests still unread would make the close a reset, whose exception
            // would hide what the disconnect alone counts.
            s.shutdownOutput();
            s.setSoTimeout(5000);
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Another path gets 404, another method 405, a body the check rejects 400 — each counted, none echoed — and the
     * keep-alive connection goes on: a message after them is echoed.
     */
    @ParameterizedTest
    @EnumSource(value = Execution.class, names = {"NETTY", "REACTIVE"})
    void refusedRequestsAreAnsweredAndCountedAndTheConnectionGoesOn(Execution execution) throws Exception {
        bind(execution);
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(head("POST /other", PAYLOAD));
            out.write(ByteBufUtil.getBytes(message(0)));
            out.write(head("GET /echo", 0));
            out.write(head("POST /echo", PAYLOAD));
            out.write(new byte[PAYLOAD]); // no loopbench header
            out.write(head("POST /echo", PAYLOAD));
            out.write(ByteBufUtil.getBytes(message(1)));
            out.flush();
            InputStream in = s.getInputStream();

            assertThat(Message.read(in).startLine()).isEqualTo("HTTP/1.1 404 Not Found");
            Message notAllowed = Message.read(in);
            assertThat(notAllowed.startLine()).isEqualTo("HTTP/1.1 405 Method Not Allowed");
            assertThat(notAllowed.headers()).containsEntry("allow", "POST");
            assertThat(Message.read(in).startLine()).isEqualTo("HTTP/1.1 400 Bad Request");
            Message echo = Message.read(in);
            assertThat(echo.startLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(echo.body()).isEqualTo(ByteBufUtil.getBytes(message(1)));
        }
        assertThat(stats.contentErrors(MessageFormat.MEASURED_TAG)).isEqualTo(3);
        assertThat(stats.firstError()).isEqualTo("server: refused a request POST /other");
    }

    /** A body that arrives in two reads is joined and echoed whole. */
    @ParameterizedTest
    @EnumSource(value = Execution.class, names = {"NETTY", "REACTIVE"})
    void aBodyInSeveralPiecesIsEchoedWhole(Execution execution) throws Exception {
        bind(execution);
        byte[] body = ByteBufUtil.getBytes(message(7));
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(head("POST /echo", PAYLOAD));
            out.write(body, 0, PAYLOAD / 2);
            out.flush();
            Thread.sleep(100);
            out.write(body, PAYLOAD / 2, PAYLOAD / 2);
            out.flush();

            Message echo = Message.read(s.getInputStream());

            assertThat(echo.startLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(echo.body()).isEqualTo(body);
        }
        assertThat(serverReads).hasSizeGreaterThanOrEqualTo(2);
        assertThat(stats.contentErrors(MessageFormat.MEASURED_TAG)).isZero();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(server.address(), 5000);
        s.setSoTimeout(5000);
        s.setTcpNoDelay(true);
        return s;
    }

    private static byte[] head(String requestLine, int length) {
        return (requestLine + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + length + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    private static ByteBuf message(int seq) {
        ByteBuf m = Unpooled.buffer(PAYLOAD);
        MessageFormat.write(m, MessageFormat.MEASURED_TAG, 1, seq, PAYLOAD);
        return m;
    }

    /** The HTTP messages in a run of raw reads, back to back. */
    private static List<Message> parse(Queue<byte[]> reads) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] r : reads) {
            all.write(r);
        }
        InputStream in = new ByteArrayInputStream(all.toByteArray());
        List<Message> messages = new ArrayList<>();
        while (in.available() > 0) {
            messages.add(Message.read(in));
        }
        return messages;
    }

    /** One HTTP/1.1 message as read off the wire: header names in lower case, a Content-Length body. */
    record Message(String startLine, Map<String, String> headers, byte[] body) {

        static Message read(InputStream in) throws IOException {
            String start = line(in);
            Map<String, String> headers = new HashMap<>();
            for (String l = line(in); !l.isEmpty(); l = line(in)) {
                int colon = l.indexOf(':');
                headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
            }
            byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
            return new Message(start, headers, body);
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder b = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new EOFException("the stream ended in a line: " + b);
                }
                if (c != '\r') {
                    b.append((char) c);
                }
            }
            return b.toString();
        }
    }
}
