package io.loopbench.engine;

import io.loopbench.engine.offload.OffloadPool;
import io.loopbench.engine.protocol.EchoServerFixture;
import io.loopbench.engine.protocol.Holding;
import io.loopbench.engine.protocol.Http2Setup;
import io.loopbench.engine.protocol.MessageFraming;
import io.loopbench.engine.protocol.http2.Http2;
import io.loopbench.engine.server.ReactiveEcho;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerStats;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

import static io.loopbench.engine.EngineTestSupport.brief;
import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * h2c and h2: every message one POST /echo stream on one HTTP/2 connection per client, window concurrent streams,
 * each echo validated — in order on the netty execution, in any order on the reactive one, whose client's streams
 * are concurrent and whose other statuses are content errors — whatever the message's size against HTTP/2's 16 KiB
 * frames; h2 over TLS, with either provider, agreeing on h2 by ALPN (a handshake that does not fails the set-up).
 */
class H2cEchoTest {

    private static final int PAYLOAD = 256;

    /** window is a connection's concurrent streams (gRPC: calls, or messages on its stream): 1 … 1,024. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Protocol.class, names = {"H2C", "H2", "GRPC", "GRPCS"})
    void outOfRangeStreamCountsAreRefusedNamingTheField(Protocol protocol) {
        for (int window : new int[] {0, RunSpec.MAX_WINDOW + 1}) {
            assertThat(RunSpec.builder().protocol(protocol).window(window).build().violations())
                    .filteredOn(v -> v.field().equals("window")).singleElement()
                    .satisfies(v -> assertThat(v.allowed()).isEqualTo("1 … 1,024"));
        }
        assertThat(RunSpec.builder().protocol(protocol).window(RunSpec.MAX_WINDOW).build().violations()).isEmpty();
    }

    @ParameterizedTest(name = "{0} B, {1} clients × window {2}")
    @CsvSource({"256, 4, 4", "64, 1, 1", "40000, 2, 16"})
    void everyStreamEchoesValidatedAndInOrder(int payload, int clients, int window) {
        RunSpec spec = quick().protocol(Protocol.H2C).payloadBytes(payload).clients(clients)
                .window(window).build();

        RepetitionResult r = EngineTestSupport.validated(spec.validated());

        assertThat(r.checks().errors().orderErrors()).isZero();
        assertThat(r.throughput().messages()).isPositive();
        // the settings that decide how much a connection carries at once are in the result
        assertThat(r.setup().http2()).isEqualTo(new Http2Setup(1024, 16 << 20, 33_488_897, 16_384));
        assertThat(EngineTestSupport.validated(RunSpec.builder().clients(1).window(1).seconds(0.2)
                .warmupSeconds(0.0).build()).setup().http2()).isNull();
    }

    /** The JDK has no HTTP/2 server: virtual threads are refused, naming the execution; reactive is not. */
    @ParameterizedTest
    @EnumSource(value = Protocol.class, names = {"H2C", "H2"})
    void virtualThreadsAreRefusedNamingTheExecution(Protocol protocol) {
        RunSpec spec = RunSpec.builder().protocol(protocol).execution(Execution.VIRTUAL_THREADS).window(1).build();

        assertThat(spec.violations()).singleElement().satisfies(v -> {
            assertThat(v.field()).isEqualTo("execution");
            assertThat(v.value()).isEqualTo("virtual-threads");
            assertThat(v.allowed()).isEqualTo("netty or reactive with protocol " + protocol.label()
                    + ": the JDK has no blocking HTTP/2 server for virtual threads to run");
        });
        assertThat(spec.toBuilder().execution(Execution.REACTIVE).window(16).build().violations()).isEmpty();
    }

    /**
     * The reactive ends, Reactor Netty's HttpServer and HttpClient: every message a stream of its own, a window of
     * them concurrent on each client's one connection, each echo validated, in whatever order the streams complete;
     * the same settings recorded as the netty ends'. 40,000 B takes three DATA frames each way.
     */
    @ParameterizedTest(name = "{0} {1}, {2} B, {3} clients × window {4}")
    @CsvSource({"h2c, jdk, 256, 4, 4", "h2c, jdk, 40000, 2, 16", "h2, jdk, 40000, 2, 16", "h2, auto, 256, 4, 4"})
    void theReactiveEndsEchoEveryStreamValidated(String protocol, String provider, int payload, int clients,
                                                 int window) {
        Protocol p = Labeled.parse(Protocol.class, protocol);
        RunSpec.Builder spec = brief(quick(Execution.REACTIVE)).protocol(p)
                .payloadBytes(payload).clients(clients).window(window);

        RepetitionResult r = EngineTestSupport.validated((p.secure()
                ? spec.tlsProvider(Labeled.parse(TlsProvider.class, provider)) : spec).build());

        assertThat(r.throughput().messages()).isPositive();
        assertThat(r.setup().http2()).isEqualTo(new Http2Setup(1024, 16 << 20, 33_488_897, 16_384));
        assertThat(r.setup().tcpNoDelay()).isTrue();
        assertThat(r.setup().connectionsOnOneThread()).isEqualTo(clients);
        assertThat(r.setup().tls() != null).isEqualTo(p.secure());
    }

    /**
     * The reactive client's window is concurrent streams on one connection: a server end holding its requests until
     * 16 wait sees more than one at once (one request at a time, as HTTP/1.1's reactive client sends them, would
     * show it one, each answered after 50 ms idle).
     */
    @Test
    void theReactiveClientKeepsItsWindowOfStreamsInFlightOnOneConnection() {
        Http2 http2 = new Http2(null);
        AtomicInteger mostHeld = new AtomicInteger();
        AtomicInteger connections = new AtomicInteger();
        try (EchoServerFixture holding = new EchoServerFixture(http2, PAYLOAD, end -> {
            connections.incrementAndGet();
            MessageFraming framing = http2.framing((InetSocketAddress) end.channel().localAddress(), PAYLOAD);
            end.addHandlerLast("hold", new Holding(framing, 16, mostHeld, new AtomicInteger()));
            end.channel().config().setAutoRead(true);
        })) {
            RunSpec spec = brief(quick(Execution.REACTIVE)).protocol(Protocol.H2C).payloadBytes(PAYLOAD).clients(1)
                    .window(16).target("127.0.0.1:" + holding.address().getPort()).build();

            RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

            assertThat(r.checks().errors().total()).as(r.error()).isZero();
            assertThat(r.throughput().messages()).isPositive().isEqualTo(r.throughput().messagesSent());
        }
        assertThat(mostHeld.get()).isGreaterThan(1);
        assertThat(connections.get()).isEqualTo(1);
    }

    /**
     * A response other than 200 is counted by the reactive client as a content error, in its words, not as an echo:
     * a server that answers its 20th request (the 19th message, the set-up's request being the first) 503.
     */
    @Test
    void theReactiveClientCountsAResponseOtherThan200AsAContentError() {
        Http2 http2 = new Http2(null);
        ServerCheck check = new ServerCheck(0, new ServerStats());
        AtomicInteger requests = new AtomicInteger();
        try (EchoServerFixture server = new EchoServerFixture((loops, accepted) -> http2.bindRequests(loops,
                EchoServerFixture.ANY_PORT, PAYLOAD, accepted, end -> { }, (request, response) ->
                        requests.incrementAndGet() == 20
                                ? request.receive().then(response.status(HttpResponseStatus.SERVICE_UNAVAILABLE).send())
                                : ReactiveEcho.http(request, response, check, OffloadPool.none()),
                check::refused))) {
            RunSpec spec = quick(Execution.REACTIVE).protocol(Protocol.H2C).payloadBytes(PAYLOAD).clients(1)
                    .warmupSeconds(0.0).seconds(0.3).target("127.0.0.1:" + server.address().getPort()).build();

            RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

            assertThat(r.ok()).isFalse();
            assertThat(r.checks().errors().contentErrors()).as(r.error()).isEqualTo(1);
            assertThat(r.error()).contains("a response 503 Service Unavailable instead of an echo");
            assertThat(r.throughput().messages()).isPositive();
        }
    }

    @ParameterizedTest(name = "h2, {0}")
    @CsvSource({"jdk", "auto"})
    void h2AgreesOnH2ByAlpnOverTlsAndEchoesInOrder(String provider) {
        RunSpec spec = quick().protocol(Protocol.H2).payloadBytes(40_000).clients(2).window(16)
                .tlsProvider(Labeled.parse(TlsProvider.class, provider)).build();

        RepetitionResult r = EngineTestSupport.validated(spec.validated());

        assertThat(r.checks().errors().orderErrors()).isZero();
        assertThat(r.setup().tls()).isNotNull();
        assertThat(r.setup().tls().protocol()).startsWith("TLSv1.");
        assertThat(r.setup().http2()).isNotNull();
    }
}
