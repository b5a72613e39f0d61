package io.loopbench.engine;

import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.http.Http;
import io.loopbench.engine.protocol.grpc.Grpc;
import io.loopbench.engine.protocol.http2.Http2;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.tls.Tls;
import io.loopbench.engine.protocol.udp.Udp;
import io.loopbench.engine.protocol.websocket.WebSocket;
import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;

/**
 * The protocols the engine speaks, by the spec's name for them: where a new protocol's package is registered (the
 * switch does not compile until every {@link Protocol} has its case). Stateless.
 */
final class Protocols {

    private Protocols() {
    }

    /** A fresh instance for one repetition (a TLS one records that repetition's handshake). */
    static EchoProtocol of(RunSpec spec) {
        return of(spec.protocol(), spec.datagramsPerRead(), spec.certsDirectory(), spec.tlsProvider(),
                spec.grpcMethod());
    }

    /** A standing echo server's protocol: one datagram per read. */
    static EchoProtocol standing(StandingEchoServer.Config config) {
        return of(config.protocol(), 1, config.certsDirectory(), config.tlsProvider(), GrpcMethod.UNARY);
    }

    /**
     * The one registry: a protocol's instance, with the datagrams a UDP read takes and a TLS protocol's material and
     * provider, and gRPC's method. Those with blocking ends are {@link io.loopbench.engine.protocol.BlockingProtocol}s.
     */
    static EchoProtocol of(Protocol protocol, int datagramsPerRead, String certsDirectory, TlsProvider provider,
                           GrpcMethod method) {
        return switch (protocol) {
            case TCP -> new Tcp();
            case UDP -> new Udp(datagramsPerRead);
            case TCPS -> tls(certsDirectory, provider);
            case WEBSOCKET -> new WebSocket(null);
            case WSS -> new WebSocket(tls(certsDirectory, provider));
            case HTTP -> new Http(null);
            case HTTPS -> new Http(tls(certsDirectory, provider));
            case H2C -> new Http2(null);
            case H2 -> new Http2(new Tls(certsDirectory, Tls.provider(provider), Http2.ALPN));
            case GRPC -> new Grpc(method, null);
            case GRPCS -> new Grpc(method, new Tls(certsDirectory, Tls.provider(provider), Http2.ALPN));
        };
    }

    private static Tls tls(String certsDirectory, TlsProvider provider) {
        return new Tls(certsDirectory, Tls.provider(provider));
    }
}
