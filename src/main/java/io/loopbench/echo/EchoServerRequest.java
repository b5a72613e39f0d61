package io.loopbench.echo;

import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Transport;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST /api/echo-servers}: a standing echo server for runs from other hosts. Every field is
 * optional.
 *
 * @param protocol     any protocol a run speaks (tcp); websocket, wss, http and https need payloadBytes, since each
 *                     message is one frame or request, checked and answered whole
 * @param port         0 … 65535; 0 picks a free port (0)
 * @param bindAddress  the local address to listen on; loopback or inside loopbench.network.allowed-cidrs (127.0.0.1)
 * @param ioModel      only shared: one listening socket is served by one group (shared)
 * @param ioThreads    event-loop threads (1)
 * @param transport    auto, nio, epoll or io_uring (auto)
 * @param work         xorshift iterations per message; needs payloadBytes (0)
 * @param payloadBytes the clients' message size: the server then checks each message's header and runs
 *                     the work per message; omitted, it echoes bytes verbatim (tcp, udp and tcps only)
 * @param certsDirectory tcps, wss and https: a directory with the server's server.pem and server-key.pem (and ca.pem);
 *                     omitted, the throw-away certificate for 127.0.0.1 and ::1 that only this service's own runs
 *                     trust — clients on other hosts need a certificate of yours for the address they reach
 * @param tlsProvider  tcps, wss and https: auto (Netty's rule: openssl where it loads, else jdk), jdk or openssl
 *                     (auto)
 */
@Schema(description = "A standing echo server; omitted fields take their defaults.")
public record EchoServerRequest(
        @Schema(defaultValue = "tcp") Protocol protocol,
        @Schema(minimum = "0", maximum = "65535", defaultValue = "0") Integer port,
        @Schema(defaultValue = "127.0.0.1") String bindAddress,
        @Schema(defaultValue = "shared", allowableValues = {"shared"}) IoModel ioModel,
        @Schema(minimum = "1", maximum = "" + RunSpec.MAX_IO_THREADS, defaultValue = "1") Integer ioThreads,
        @Schema(defaultValue = "auto", allowableValues = {"auto", "nio", "epoll", "io_uring"}) Transport transport,
        @Schema(minimum = "0", maximum = "" + RunSpec.MAX_WORK, defaultValue = "0") Integer work,
        @Schema(minimum = "" + RunSpec.MIN_PAYLOAD, maximum = "" + RunSpec.MAX_PAYLOAD) Integer payloadBytes,
        String certsDirectory,
        @Schema(defaultValue = "auto") TlsProvider tlsProvider) {

    public EchoServerRequest {
        protocol = protocol != null ? protocol : Protocol.TCP;
        port = port != null ? port : 0;
        bindAddress = bindAddress != null ? bindAddress : "127.0.0.1";
        ioModel = ioModel != null ? ioModel : IoModel.SHARED;
        ioThreads = ioThreads != null ? ioThreads : 1;
        transport = transport != null ? transport : Transport.AUTO;
        work = work != null ? work : 0;
        tlsProvider = tlsProvider != null ? tlsProvider : TlsProvider.AUTO;
    }
}
