package io.loopbench.engine;

import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.WindowMode;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static io.loopbench.engine.EngineTestSupport.brief;
import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every protocol, IO model, window mode and transport echoes, validates and reports consistently, each pair of them
 * together ({@link #matrix}). The phases are {@link EngineTestSupport#brief} ones: what is checked is every echo, which a shorter
 * phase checks as well, not the figures.
 */
class EchoCorrectnessTest {

    /**
     * Every pair of dimensions, not their whole product: each protocol on every transport and in every IO model ×
     * window mode, each of those on every transport (28 cases, not 84; a transport is the channel classes, an IO
     * model the loops' layout, a window mode the clients' sending, and no code joins a transport to the other two).
     */
    static List<Arguments> matrix() {
        List<Transport> transports = List.of(Transport.NIO, Transport.EPOLL, Transport.IO_URING);
        List<Arguments> cases = new ArrayList<>();
        for (Protocol p : Protocol.values()) {
            int layout = 0;
            for (IoModel m : IoModel.values()) {
                for (WindowMode w : WindowMode.values()) {
                    cases.add(Arguments.of(transports.get((p.ordinal() + layout++) % transports.size()), p, m, w));
                }
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("matrix")
    void echoesAndValidatesEveryMessage(Transport transport, Protocol protocol, IoModel model, WindowMode mode) {
        Assumptions.assumeTrue(Transports.isAvailable(transport),
                () -> transport.label() + " does not load here: " + Transports.unavailabilityCause(transport));
        // sharded over two loops: each client and its server end share one, so the run stays fair
        RunSpec spec = brief(quick()).transport(transport).protocol(protocol).ioModel(model)
                .ioThreads(model == IoModel.SHARDED ? 2 : 1).windowMode(mode).build();

        RepetitionResult r = EngineTestSupport.assertValidatedByEveryClient(
                EngineTestSupport.measure(spec).run().repetitions().getFirst(), spec.clients());
        assertThat(r.setup().transport()).isEqualTo(transport);
        String prefix = switch (transport) {
            case NIO -> "Nio";
            case EPOLL -> "Epoll";
            case IO_URING -> "IoUring";
            case AUTO, JDK -> throw new AssertionError();
        };
        assertThat(r.setup().clientChannel()).startsWith(prefix)
                .endsWith(protocol == Protocol.UDP ? "DatagramChannel" : "SocketChannel");
        assertThat(r.setup().serverChannel().toLowerCase(Locale.ROOT)).startsWith(prefix.toLowerCase(Locale.ROOT));
        // one loop, or sharded over two: each client and its server end on one loop
        assertThat(r.setup().connectionsOnOneThread()).isEqualTo(spec.clients());
        assertEchoedEverything(spec, r);
    }

    /** Batched datagram reads (recvmmsg) on both Netty executions: every datagram still echoed and checked. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Execution.class, names = {"NETTY", "REACTIVE"})
    void batchedDatagramReadsEchoAndValidateEveryMessage(Execution execution) {
        Assumptions.assumeTrue(Transports.isAvailable(Transport.EPOLL), "epoll transport");
        RunSpec spec = brief(quick(execution)).protocol(Protocol.UDP).transport(Transport.EPOLL).window(16)
                .datagramsPerRead(16).build();

        RepetitionResult r = EngineTestSupport.assertValidatedByEveryClient(
                EngineTestSupport.measure(spec).run().repetitions().getFirst(), spec.clients());

        assertThat(r.checks().errors().lostMessages()).isZero();
        assertEchoedEverything(spec, r);
    }

    static List<Arguments> executions() {
        List<Arguments> cases = new ArrayList<>();
        for (Execution e : List.of(Execution.REACTIVE, Execution.VIRTUAL_THREADS)) {
            // a protocol's refused executions are tested where it is (WebSocketEchoTest, HttpEchoTest, H2cEchoTest)
            for (Protocol p : Arrays.stream(Protocol.values()).filter(p -> p.runsOn(e)).toList()) {
                for (WindowMode w : WindowMode.values()) {
                    cases.add(Arguments.of(e, p, w));
                }
            }
        }
        return cases;
    }

    /** The other executions: same messages, same checks, same figures; only the code moving the bytes differs. */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("executions")
    void everyExecutionEchoesAndValidatesEveryMessage(Execution execution, Protocol protocol, WindowMode mode) {
        RunSpec.Builder builder = brief(quick(execution)).protocol(protocol).windowMode(mode);
        // a batch needs more than one message (virtual threads run window 1 by default: see quick(Execution)), but
        // reactive http and https send one request at a time: a batch of one
        RunSpec spec = (!protocol.pipelinesOn(execution) ? builder.window(1)
                : mode == WindowMode.BATCH ? builder.window(4) : builder).build();

        RepetitionResult r = EngineTestSupport.assertValidatedByEveryClient(
                EngineTestSupport.measure(spec).run().repetitions().getFirst(), spec.clients());
        if (execution == Execution.VIRTUAL_THREADS) {
            assertThat(r.setup().transport()).isEqualTo(Transport.JDK);
            assertThat(r.setup().clientChannel()).isEqualTo(switch (protocol) {
                case TCP -> "Socket";
                case UDP -> "DatagramSocket";
                case TCPS -> "SSLSocketImpl";
                case WEBSOCKET, WSS, HTTP, HTTPS, H2C, H2, GRPC, GRPCS -> throw new AssertionError("refused with virtual threads");
            });
            assertThat(r.setup().serverChannel()).isEqualTo(switch (protocol) {
                case TCP -> "ServerSocket";
                case UDP -> "DatagramSocket";
                case TCPS -> "SSLServerSocketImpl";
                case WEBSOCKET, WSS, HTTP, HTTPS, H2C, H2, GRPC, GRPCS -> throw new AssertionError("refused with virtual threads");
            });
            assertThat(r.setup().connectionsOnOneThread()).isNull();
        } else {
            assertThat(r.setup().transport()).isEqualTo(Transports.resolve(Transport.AUTO));
        }
        assertEchoedEverything(spec, r);
    }

    private static void assertEchoedEverything(RunSpec spec, RepetitionResult r) {
        Protocol protocol = spec.protocol();
        assertThat(r.checks().errors().total()).isZero();
        assertThat(r.checks().warmup().messages()).isPositive();
        assertThat(r.throughput().messages()).isPositive().isEqualTo(r.throughput().messagesSent());
        if (spec.windowMode() == WindowMode.SLIDING || spec.window() == 1) { // a batch of one: each message's RTT
            assertThat(r.rtt().latency().mode()).isEqualTo(LatencyMode.MESSAGE);
            assertThat(r.rtt().latency().observations()).isEqualTo(r.throughput().messages());
        } else {
            assertThat(r.rtt().latency().mode()).isEqualTo(LatencyMode.BATCH);
            assertThat(r.rtt().latency().observations() * spec.window()).isEqualTo(r.throughput().messages());
        }
        assertThat(r.throughput().roundTripsPerSecond())
                .isCloseTo(r.throughput().messages() / r.throughput().elapsedSeconds(),
                org.assertj.core.data.Percentage.withPercentage(0.001));
        assertThat(r.throughput().payloadMibPerSecond())
                .isCloseTo(2.0 * spec.payloadBytes() * r.throughput().roundTripsPerSecond() / (1 << 20),
                org.assertj.core.data.Percentage.withPercentage(0.001));
        assertThat(r.rtt().latency().p50Us()).isPositive().isLessThanOrEqualTo(r.rtt().latency().p99Us());
        assertThat(r.rtt().latency().p99Us()).isLessThanOrEqualTo(r.rtt().latency().maxUs());
        assertThat(r.setup().tls() != null).isEqualTo(protocol.secure());
        if (protocol != Protocol.UDP) {
            assertThat(r.setup().tcpNoDelay()).isTrue();
            assertThat(r.setup().udpBuffers()).isNull();
        } else {
            assertThat(r.setup().tcpNoDelay()).isNull();
            assertThat(r.setup().udpBuffers().requestedReceiveBytes()).isEqualTo(4 * 1024 * 1024);
            assertThat(r.setup().udpBuffers().serverReceiveBytes()).isPositive();
            assertThat(r.setup().udpBuffers().clientSendMinBytes()).isPositive();
        }
    }
}
