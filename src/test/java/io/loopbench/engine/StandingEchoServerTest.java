package io.loopbench.engine;

import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetAddress;

import static io.loopbench.engine.EngineTestSupport.loopThreads;
import static io.loopbench.engine.EngineTestSupport.brief;
import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/** A standing echo server of every protocol serves a run's target, checked as a repetition's own server would be. */
class StandingEchoServerTest {

    private static StandingEchoServer.Config config(Protocol protocol, Integer payloadBytes) {
        return new StandingEchoServer.Config(protocol, InetAddress.getLoopbackAddress(), 0, 1, Transport.AUTO, 0,
                payloadBytes, null, TlsProvider.JDK);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Protocol.class)
    void servesATargetRunOfEveryProtocolCheckingEachMessage(Protocol protocol) {
        long loopsBefore = loopThreads();
        StandingEchoServer.Config config = config(protocol, 256);
        assertThat(config.violations()).isEmpty();
        try (StandingEchoServer server = StandingEchoServer.start(config)) {
            RunSpec spec = brief(quick()).protocol(protocol).target("127.0.0.1:" + server.port()).build();

            RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

            EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
            assertThat(r.setup().remote()).isTrue();
            assertThat(r.setup().tls() != null).isEqualTo(protocol.secure());
            assertThat(server.counts().errors()).isZero();
            assertThat(server.counts().connections()).isEqualTo(protocol == Protocol.UDP ? 0 : spec.clients());
        }
        assertThat(loopThreads()).isEqualTo(loopsBefore);
    }

    /** Without a message size: TLS's bytes as they come; gRPC's messages, each whole. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Protocol.class, names = {"TCPS", "GRPC"})
    void echoesRawBytesWithoutAMessageSize(Protocol protocol) {
        try (StandingEchoServer server = StandingEchoServer.start(config(protocol, null))) {
            RepetitionResult r = EngineTestSupport.measure(quick().protocol(protocol)
                    .target("127.0.0.1:" + server.port()).build()).run().repetitions().getFirst();

            assertThat(r.checks().errors().total()).as(r.error()).isZero();
            assertThat(server.counts().bytes()).isGreaterThanOrEqualTo(256 * r.throughput().messages());
        }
    }

    @Test
    void aFramedProtocolNeedsTheMessageSizeAndTlsSettingsGoWithTlsProtocolsOnly() {
        assertThat(config(Protocol.WSS, null).violations()).extracting(Violation::field, Violation::allowed)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("payloadBytes",
                        "16 … 65,507 with protocol wss: each message is one WebSocket frame, checked and answered "
                                + "whole"));
        assertThat(config(Protocol.HTTP, null).violations()).extracting(Violation::allowed).singleElement()
                .asString().contains("one HTTP request");
        StandingEchoServer.Config tcpWithTls = new StandingEchoServer.Config(Protocol.TCP,
                InetAddress.getLoopbackAddress(), 0, 1, Transport.AUTO, 0, null, "/nowhere", TlsProvider.OPENSSL);
        assertThat(tcpWithTls.violations()).extracting(Violation::field)
                .containsExactly("certsDirectory", "tlsProvider");
        StandingEchoServer.Config missingCerts = new StandingEchoServer.Config(Protocol.HTTPS,
                InetAddress.getLoopbackAddress(), 0, 1, Transport.AUTO, 0, 256, "/nowhere", TlsProvider.JDK);
        assertThat(missingCerts.violations()).extracting(Violation::field).containsExactly("certsDirectory");
    }
}
