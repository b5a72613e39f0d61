package io.loopbench.engine;

import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.udp.Udp;
import io.loopbench.engine.spec.Protocol;

/**
 * The protocols the engine speaks, by the spec's name for them: where a new protocol's package is registered (the
 * switch does not compile until every {@link Protocol} has its case). Stateless.
 */
final class Protocols {

    private Protocols() {
    }

    static EchoProtocol of(Protocol protocol) {
        return switch (protocol) {
            case TCP -> new Tcp();
            case UDP -> new Udp();
        };
    }
}
