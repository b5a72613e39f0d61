package io.loopbench.engine;

import io.loopbench.engine.protocol.Http2Setup;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Violation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * h2c and h2: every message one POST /echo stream on one HTTP/2 connection per client, window concurrent streams,
 * each echo validated and in order, whatever the message's size against HTTP/2's 16 KiB frames; h2 over TLS, with
 * either provider, agreeing on h2 by ALPN (a handshake that does not fails the set-up).
 */
class H2cEchoTest {

    @ParameterizedTest(name = "{0} B, {1} clients × window {2}")
    @CsvSource({"256, 4, 4", "64, 1, 1", "40000, 2, 16"})
    void everyStreamEchoesValidatedAndInOrder(int payload, int clients, int window) {
        RunSpec spec = EngineTestSupport.quick().protocol(Protocol.H2C).payloadBytes(payload).clients(clients)
                .window(window).build();

        RepetitionResult r = EngineTestSupport.validated(spec.validated());

        assertThat(r.checks().errors().orderErrors()).isZero();
        assertThat(r.throughput().messages()).isPositive();
        // the settings that decide how much a connection carries at once are in the result
        assertThat(r.setup().http2()).isEqualTo(new Http2Setup(1024, 16 << 20, 33_488_897, 16_384));
        assertThat(EngineTestSupport.validated(RunSpec.builder().clients(1).window(1).seconds(0.2)
                .warmupSeconds(0.0).build()).setup().http2()).isNull();
    }

    @Test
    void otherExecutionsAreRefusedNamingTheField() {
        for (Execution e : new Execution[] {Execution.REACTIVE, Execution.VIRTUAL_THREADS}) {
            assertThat(RunSpec.builder().protocol(Protocol.H2C).execution(e).window(1).build().violations())
                    .filteredOn(v -> v.field().equals("execution")).singleElement()
                    .satisfies(v -> assertThat(v.allowed()).isEqualTo("netty with protocol h2c: its reactive and "
                            + "virtual-threads ends are not built yet"));
        }
    }

    @ParameterizedTest(name = "h2, {0}")
    @CsvSource({"jdk", "auto"})
    void h2AgreesOnH2ByAlpnOverTlsAndEchoesInOrder(String provider) {
        RunSpec spec = EngineTestSupport.quick().protocol(Protocol.H2).payloadBytes(40_000).clients(2).window(16)
                .tlsProvider(io.loopbench.engine.spec.Labeled.parse(TlsProvider.class, provider)).build();

        RepetitionResult r = EngineTestSupport.validated(spec.validated());

        assertThat(r.checks().errors().orderErrors()).isZero();
        assertThat(r.setup().tls()).isNotNull();
        assertThat(r.setup().tls().protocol()).startsWith("TLSv1.");
        assertThat(r.setup().http2()).isNotNull();
    }
}
