package io.loopbench.engine;

import io.loopbench.engine.protocol.tls.Tls;
import io.loopbench.engine.protocol.tls.TlsMaterial;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WindowMode;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.loopbench.engine.EngineTestSupport.brief;
import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * http and https: every message one POST /echo, pipelined on the netty execution and one at a time on the reactive
 * one (Reactor Netty's HttpServer and HttpClient), echoed and validated in both window modes on both layouts, also
 * against an HTTP server of another make; the execution and window they refuse; TLS as tcps has it. Every echo run
 * has {@link EngineTestSupport#brief} phases: what is checked is every echo, not the figures.
 */
class HttpEchoTest {

    /**
     * Reactive only: EchoCorrectnessTest runs netty's http and https in every IO model × window mode, on each
     * transport, with the same spec and the same checks and more (connections on one thread, no errors, every echo).
     */
    static List<Arguments> layouts() {
        List<Arguments> cases = new ArrayList<>();
        for (Execution e : List.of(Execution.REACTIVE)) {
            for (Protocol p : List.of(Protocol.HTTP, Protocol.HTTPS)) {
                for (IoModel m : IoModel.values()) {
                    for (WindowMode w : WindowMode.values()) {
                        cases.add(Arguments.of(e, p, m, w));
                    }
                }
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("layouts")
    void echoesAndValidatesEveryMessage(Execution execution, Protocol protocol, IoModel model, WindowMode mode) {
        RunSpec spec = http(execution, protocol).ioModel(model).ioThreads(model == IoModel.SHARDED ? 2 : 1)
                .windowMode(mode).build();

        RepetitionResult r = EngineTestSupport.validated(spec);

        assertThat(r.setup().tcpNoDelay()).isTrue();
        assertThat(r.setup().tls() != null).isEqualTo(protocol == Protocol.HTTPS);
        assertThat(r.setup().connectionsOnOneThread()).isNotNull();
    }

    /** arknet's largest message: more than one TLS record, read in pieces whenever a read ends inside a body. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("executionsAndProtocols")
    void largeMessagesInOneBodyEach(Execution execution, Protocol protocol) {
        RepetitionResult r = EngineTestSupport.validated(http(execution, protocol).payloadBytes(16384).build());

        assertThat(r.throughput().payloadMibPerSecond()).isPositive();
    }

    static List<Arguments> executionsAndProtocols() {
        List<Arguments> cases = new ArrayList<>();
        for (Execution e : List.of(Execution.NETTY, Execution.REACTIVE)) {
            cases.add(Arguments.of(e, Protocol.HTTP));
            cases.add(Arguments.of(e, Protocol.HTTPS));
        }
        return cases;
    }

    /** Both executions with Netty's ends × both TLS providers (WebSocketEchoTest's wss cases too). */
    static List<Arguments> executionsAndProviders() {
        List<Arguments> cases = new ArrayList<>();
        for (Execution e : List.of(Execution.NETTY, Execution.REACTIVE)) {
            for (TlsProvider p : List.of(TlsProvider.JDK, TlsProvider.OPENSSL)) {
                cases.add(Arguments.of(e, p));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("executionsAndProviders")
    void httpsWithBothProvidersWhereTheyLoad(Execution execution, TlsProvider provider) {
        Assumptions.assumeTrue(provider == TlsProvider.JDK || Tls.openSslUnavailable() == null,
                () -> "Netty's OpenSSL provider does not load here: " + Tls.openSslUnavailable());

        RepetitionResult r = EngineTestSupport.validated(http(execution, Protocol.HTTPS).tlsProvider(provider).build());

        assertThat(r.setup().tls().provider()).isEqualTo(provider.label());
        assertThat(r.setup().tls().protocol()).isEqualTo("TLSv1.3");
    }

    @Test
    void httpsWithTheUsersOwnCertificates(@TempDir Path dir) throws Exception {
        TlsEchoTest.write(dir, TlsMaterial.generate(InetAddress.getByName("127.0.0.1")));

        RepetitionResult r = EngineTestSupport.validated(brief(quick()).protocol(Protocol.HTTPS).certsDirectory(dir.toString())
                .build());

        assertThat(r.setup().tls()).isNotNull();
    }

    @ParameterizedTest
    @EnumSource(value = Execution.class, names = {"NETTY", "REACTIVE"})
    void aCertificateForAnotherHostIsRefusedByTheClient(Execution execution, @TempDir Path dir) throws Exception {
        TlsEchoTest.write(dir, TlsMaterial.generate(InetAddress.getByName("10.9.9.9")));
        RunSpec spec = http(execution, Protocol.HTTPS).certsDirectory(dir.toString()).build();

        RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

        assertThat(r.ok()).isFalse();
        assertThat(r.error()).startsWith("set-up failed").containsIgnoringCase("certificate");
    }

    @ParameterizedTest
    @EnumSource(value = Protocol.class, names = {"HTTP", "HTTPS"})
    void virtualThreadsAreRefusedNamingTheExecution(Protocol protocol) {
        RunSpec spec = quick(Execution.VIRTUAL_THREADS).protocol(protocol).build();

        assertThat(spec.violations()).singleElement().satisfies(v -> {
            assertThat(v.field()).isEqualTo("execution");
            assertThat(v.value()).isEqualTo("virtual-threads");
            assertThat(v.message()).contains("netty or reactive with protocol " + protocol.label())
                    .contains("no blocking HTTP/1.1 server with pipelining");
        });
    }

    /** Reactor Netty's HttpClient never pipelines: a window above 1 is refused on reactive, naming why. */
    @ParameterizedTest
    @EnumSource(value = Protocol.class, names = {"HTTP", "HTTPS"})
    void aReactiveWindowAboveOneIsRefusedNamingTheWindow(Protocol protocol) {
        RunSpec spec = quick(Execution.REACTIVE).protocol(protocol).window(16).build();

        assertThat(spec.violations()).singleElement().satisfies(v -> {
            assertThat(v.field()).isEqualTo("window");
            assertThat(v.value()).isEqualTo("16");
            assertThat(v.message()).contains("allowed 1 with protocol " + protocol.label() + " and reactive execution")
                    .contains("one request at a time").contains("use the netty execution to pipeline");
        });
        assertThat(spec.toBuilder().window(1).build().violations()).isEmpty();
        assertThat(spec.toBuilder().execution(Execution.NETTY).build().violations()).isEmpty();
    }

    @Test
    void tlsFieldsGoWithHttpsButNotHttp(@TempDir Path dir) throws Exception {
        RunSpec http = RunSpec.builder().protocol(Protocol.HTTP).certsDirectory(dir.toString())
                .tlsProvider(TlsProvider.OPENSSL).build();

        assertThat(http.violations()).extracting(Violation::field).containsExactly("certsDirectory", "tlsProvider");
        assertThat(http.violations()).allSatisfy(v -> assertThat(v.message()).contains("https"));

        TlsEchoTest.write(dir, TlsMaterial.generate(InetAddress.getByName("127.0.0.1")));
        assertThat(http.toBuilder().protocol(Protocol.HTTPS).tlsProvider(TlsProvider.JDK).build().violations())
                .isEmpty();
    }

    /** A target: the client alone, pipelining its window against an HTTP server of another make. */
    @ParameterizedTest
    @EnumSource(WindowMode.class)
    void aTargetHttpServer(WindowMode mode) {
        try (TargetServer server = new TargetServer(HttpResponseStatus.OK)) {
            RepetitionResult r = EngineTestSupport.validated(brief(quick()).protocol(Protocol.HTTP).window(16).windowMode(mode)
                    .target("127.0.0.1:" + server.port()).build());

            assertThat(r.setup().serverAddress()).endsWith(":" + server.port());
        }
    }

    /** The reactive client, one request at a time, against an HTTP server of another make. */
    @Test
    void aTargetHttpServerForTheReactiveClient() {
        try (TargetServer server = new TargetServer(HttpResponseStatus.OK)) {
            RepetitionResult r = EngineTestSupport.validated(http(Execution.REACTIVE, Protocol.HTTP)
                    .target("127.0.0.1:" + server.port()).build());

            assertThat(r.setup().serverAddress()).endsWith(":" + server.port());
        }
    }

    /**
     * A status other than 200 is counted, with its words, as an echo that did not come: no crash, no echo. The
     * reactive client's connection is opened by a first echo request, which such a server fails, naming the status.
     */
    @Test
    void aTargetAnsweringAnotherStatusFailsTheRunNamingIt() {
        try (TargetServer server = new TargetServer(HttpResponseStatus.NOT_FOUND)) {
            RunSpec spec = quick().protocol(Protocol.HTTP).warmupSeconds(0.0).target("127.0.0.1:" + server.port())
                    .build();

            RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

            assertThat(r.ok()).isFalse();
            assertThat(r.throughput().messages()).isZero();
            assertThat(r.checks().errors().contentErrors()).isEqualTo(4L * 4);
            assertThat(r.error()).contains("a response 404 Not Found instead of an echo");

            RepetitionResult reactive = EngineTestSupport.measure(spec.toBuilder().execution(Execution.REACTIVE).window(1)
                    .build()).run().repetitions().getFirst();

            assertThat(reactive.ok()).isFalse();
            assertThat(reactive.error()).startsWith("set-up failed").contains("answered 404 Not Found");
        }
    }

    /**
     * {@link EngineTestSupport#quick(Execution)} with {@link EngineTestSupport#brief} phases for an HTTP protocol:
     * window 1 on reactive, which never pipelines.
     */
    private static RunSpec.Builder http(Execution execution, Protocol protocol) {
        RunSpec.Builder b = brief(quick(execution)).protocol(protocol);
        return protocol.pipelinesOn(execution) ? b : b.window(1);
    }

    /**
     * A plain Netty HTTP server — codec, aggregator, one handler — answering every request with {@code status} and,
     * for 200, the request's body; bound on a loop of its own at 127.0.0.1, port 0, closed with its connections.
     */
    private static final class TargetServer implements AutoCloseable {
        private final EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        private final Channel server;

        TargetServer(HttpResponseStatus status) {
            server = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 16),
                                    new SimpleChannelInboundHandler<FullHttpRequest>() {
                                        @Override
                                        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
                                            var body = status == HttpResponseStatus.OK
                                                    ? req.content().retain() : ctx.alloc().buffer(0);
                                            var response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                                                    body);
                                            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH,
                                                    body.readableBytes());
                                            ctx.writeAndFlush(response);
                                        }
                                    });
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).syncUninterruptibly().channel();
        }

        int port() {
            return ((InetSocketAddress) server.localAddress()).getPort();
        }

        @Override
        public void close() {
            server.close().syncUninterruptibly();
            // shutting the loop down closes the accepted connections too
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
