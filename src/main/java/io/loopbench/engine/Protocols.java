package io.loopbench.engine;

import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.udp.Udp;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;

/**
 * The protocols the engine speaks, by the spec's name for them: where a new protocol's package is registered (the
 * switch does not compile until every {@link Protocol} has its case). Stateless.
 */
final class Protocols {

    private Protocols() {
    }

    static EchoProtocol of(RunSpec spec) {
        return of(spec.protocol(), spec.datagramsPerRead());
    }

    /** @param datagramsPerRead UDP: the most datagrams one read takes (see RunSpec) */
    static EchoProtocol of(Protocol protocol, int datagramsPerRead) {
        return switch (protocol) {
            case TCP -> new Tcp();
            case UDP -> new Udp(datagramsPerRead);
        };
    }
}
