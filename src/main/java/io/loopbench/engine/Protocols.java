package io.loopbench.engine;

import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.http.Http;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.tls.Tls;
import io.loopbench.engine.protocol.udp.Udp;
import io.loopbench.engine.protocol.websocket.WebSocket;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.netty.handler.ssl.SslProvider;

/**
 * The protocols the engine speaks, by the spec's name for them: where a new protocol's package is registered (the
 * switch does not compile until every {@link Protocol} has its case). Stateless.
 */
final class Protocols {

    private Protocols() {
    }

    /** A fresh instance for one repetition (a TLS one records that repetition's handshake). */
    static EchoProtocol of(RunSpec spec) {
        return switch (spec.protocol()) {
            case TCP -> new Tcp();
            case UDP -> new Udp(spec.datagramsPerRead());
            case TCPS -> tls(spec);
            case WEBSOCKET -> new WebSocket(null);
            case WSS -> new WebSocket(tls(spec));
            case HTTP -> new Http(null);
            case HTTPS -> new Http(tls(spec));
        };
    }

    /** A standing echo server's protocol: one datagram per read. */
    static EchoProtocol standing(StandingEchoServer.Config config) {
        return switch (config.protocol()) {
            case TCP -> new Tcp();
            case UDP -> new Udp(1);
            case TCPS -> tls(config.certsDirectory(), config.tlsProvider());
            case WEBSOCKET -> new WebSocket(null);
            case WSS -> new WebSocket(tls(config.certsDirectory(), config.tlsProvider()));
            case HTTP -> new Http(null);
            case HTTPS -> new Http(tls(config.certsDirectory(), config.tlsProvider()));
        };
    }

    private static Tls tls(RunSpec spec) {
        return tls(spec.certsDirectory(), spec.tlsProvider());
    }

    private static Tls tls(String certsDirectory, TlsProvider provider) {
        return new Tls(certsDirectory, provider == TlsProvider.OPENSSL ? SslProvider.OPENSSL : SslProvider.JDK);
    }
}
