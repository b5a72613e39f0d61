package io.loopbench.engine;

import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.protocol.tls.Tls;
import io.loopbench.engine.protocol.tls.TlsMaterial;
import io.loopbench.engine.protocol.websocket.WebSocket;
import io.loopbench.engine.server.EchoServerHandler;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerStats;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WindowMode;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.netty.DisposableChannel;

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
 * websocket and wss: every message echoed and validated, one binary frame each, on both executions that run them
 * (netty's codec handlers, reactive's HttpServer and HttpClient), also against a target; the execution they refuse.
 * Every run has {@link EngineTestSupport#brief} phases: what is checked is every echo, not the figures.
 */
class WebSocketEchoTest {

    /**
     * Reactive only: EchoCorrectnessTest runs netty's websocket and wss in every IO model × window mode, on each
     * transport, with the same spec and the same checks (every client on one loop with its server end) and more;
     * ResourceReleaseTest checks that no loop outlives a repetition of any protocol and execution.
     */
    static List<Arguments> layouts() {
        List<Arguments> cases = new ArrayList<>();
        for (Execution e : List.of(Execution.REACTIVE)) {
            for (Protocol p : List.of(Protocol.WEBSOCKET, Protocol.WSS)) {
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
        RunSpec spec = brief(quick(execution)).protocol(protocol).ioModel(model)
                .ioThreads(model == IoModel.SHARDED ? 2 : 1).windowMode(mode).build();

        RepetitionResult r = EngineTestSupport.validated(spec);

        assertThat(r.setup().tcpNoDelay()).isTrue();
        assertThat(r.setup().tls() != null).isEqualTo(protocol == Protocol.WSS);
        // one loop, or sharded over two: each client and its server peer on one loop
        assertThat(r.setup().connectionsOnOneThread()).isEqualTo(spec.clients());
        // The loops are gone, and Reactor Netty's HttpServer and HttpClient never started its global ones
        assertThat(EngineTestSupport.loopThreads()).isZero();
    }

    /** Reactor Netty's HttpServer and HttpClient on each transport's loops (epoll, io_uring: where they load). */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protocolsAndTransports")
    void reactiveOnEveryTransport(Protocol protocol, Transport transport) {
        Assumptions.assumeTrue(Transports.isAvailable(transport),
                () -> transport.label() + " does not load here: " + Transports.unavailabilityCause(transport));

        RepetitionResult r = EngineTestSupport.validated(brief(quick(Execution.REACTIVE)).protocol(protocol).transport(transport)
                .build());

        assertThat(r.setup().transport()).isEqualTo(transport);
        assertThat(r.setup().clientChannel()).endsWith("SocketChannel");
    }

    static List<Arguments> protocolsAndTransports() {
        List<Arguments> cases = new ArrayList<>();
        for (Protocol p : List.of(Protocol.WEBSOCKET, Protocol.WSS)) {
            for (Transport t : List.of(Transport.NIO, Transport.EPOLL, Transport.IO_URING)) {
                cases.add(Arguments.of(p, t));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.loopbench.engine.HttpEchoTest#executionsAndProviders")
    void wssWithBothProvidersWhereTheyLoad(Execution execution, TlsProvider provider) {
        Assumptions.assumeTrue(provider == TlsProvider.JDK || Tls.openSslUnavailable() == null,
                () -> "Netty's OpenSSL provider does not load here: " + Tls.openSslUnavailable());

        RepetitionResult r = EngineTestSupport.validated(brief(quick(execution)).protocol(Protocol.WSS).tlsProvider(provider)
                .build());

        assertThat(r.setup().tls().provider()).isEqualTo(provider.label());
        assertThat(r.setup().tls().protocol()).isEqualTo("TLSv1.3");
    }

    @Test
    void wssWithTheUsersOwnCertificates(@TempDir Path dir) throws Exception {
        TlsEchoTest.write(dir, TlsMaterial.generate(InetAddress.getByName("127.0.0.1")));

        RepetitionResult r = EngineTestSupport.validated(brief(quick()).protocol(Protocol.WSS).certsDirectory(dir.toString())
                .build());

        assertThat(r.setup().tls()).isNotNull();
    }

    @ParameterizedTest
    @EnumSource(value = Protocol.class, names = {"WEBSOCKET", "WSS"})
    void onlyVirtualThreadsAreRefusedNamingTheExecution(Protocol protocol) {
        RunSpec spec = quick(Execution.VIRTUAL_THREADS).protocol(protocol).build();

        assertThat(spec.violations()).singleElement().satisfies(v -> {
            assertThat(v.field()).isEqualTo("execution");
            assertThat(v.value()).isEqualTo("virtual-threads");
            assertThat(v.message()).contains("netty or reactive with protocol " + protocol.label());
        });
        assertThat(quick(Execution.REACTIVE).protocol(protocol).build().violations()).isEmpty();
    }

    @Test
    void tlsFieldsGoWithWssButNotWebsocket(@TempDir Path dir) {
        RunSpec ws = RunSpec.builder().protocol(Protocol.WEBSOCKET).certsDirectory(dir.toString())
                .tlsProvider(TlsProvider.OPENSSL).build();

        assertThat(ws.violations()).extracting(Violation::field).containsExactly("certsDirectory", "tlsProvider");
    }

    /** A target: the client alone, against a WebSocket echo server it did not start. */
    @Test
    void aTargetWebSocketServer() {
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        DefaultChannelGroup accepted = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        ServerCheck check = new ServerCheck(0, new ServerStats());
        WebSocket webSocket = new WebSocket(null);
        DisposableChannel server = webSocket.bind(loops, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                256, accepted, end -> end.addHandlerLast("echo", new EchoServerHandler(256, check, null,
                        webSocket.framing((InetSocketAddress) end.channel().localAddress(), 256))));
        try {
            int port = ((InetSocketAddress) server.address()).getPort();

            RepetitionResult r = EngineTestSupport.validated(brief(quick()).protocol(Protocol.WEBSOCKET)
                    .target("127.0.0.1:" + port).build());

            assertThat(r.setup().serverAddress()).endsWith(":" + port);
        } finally {
            server.disposeNow();
            accepted.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
