package io.loopbench.engine;

import io.loopbench.engine.protocol.BlockingProtocol;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.TlsProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one registry of protocols agrees with the spec's rules: a protocol has blocking ends (virtual threads) exactly
 * where its spec says it runs on virtual threads, and a secure one records its TLS handshake.
 */
class ProtocolsTest {

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void aProtocolHasBlockingEndsExactlyWhereItsSpecLetsItRunOnVirtualThreads(Protocol protocol) {
        EchoProtocol ends = Protocols.of(protocol, 1, null, TlsProvider.JDK, GrpcMethod.UNARY);

        assertThat(ends instanceof BlockingProtocol).as(protocol.label())
                .isEqualTo(protocol.runsOn(Execution.VIRTUAL_THREADS));
        assertThat(ends.stream()).isEqualTo(protocol != Protocol.UDP);
    }
}
