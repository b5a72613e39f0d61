package io.loopbench.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.loopbench.engine.protocol.Http2Setup;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.protocol.UdpBuffers;
import io.loopbench.engine.spec.Transport;

/**
 * How a repetition's echo pair was set up: the environment its figures hold for. Immutable.
 *
 * @param transport             the concrete transport used
 * @param serverChannel         Netty channel class of the server side; null with a target
 * @param clientChannel         Netty channel class of the client side
 * @param serverAddress         where the echoes came from: this repetition's servers, or the target
 * @param clientAddress         the first client's local address
 * @param remote                true when the client side ran against a target instead of its own loopback servers
 *                              (absent in records stored before targets existed: those are loopback)
 * @param eventLoops            event-loop threads (ioThreads); virtual-threads execution: the carrier threads that
 *                              ran, counted
 * @param connectionsOnOneThread connections whose client end and server end run on the same event-loop thread; null
 *                              with a target
 * @param tcpNoDelay            TCP: whether TCP_NODELAY was in effect on every socket of both ends; null for UDP
 * @param udpBuffers            UDP: requested and applied socket buffers; null for TCP
 * @param tls                   tcps: the TLS provider, protocol version and cipher suite the first client's handshake
 *                              negotiated; null for tcp and udp
 * @param http2                 h2c, h2: the HTTP/2 settings both ends announced, and the connection window they widened
 *                              to; absent for the other protocols
 */
public record EchoPairSetup(
        Transport transport,
        String serverChannel,
        String clientChannel,
        String serverAddress,
        String clientAddress,
        Boolean remote,
        int eventLoops,
        Integer connectionsOnOneThread,
        Boolean tcpNoDelay,
        UdpBuffers udpBuffers,
        TlsSession tls,
        @JsonInclude(JsonInclude.Include.NON_NULL) Http2Setup http2) {

    /** A pair without HTTP/2. */
    public EchoPairSetup(Transport transport, String serverChannel, String clientChannel, String serverAddress,
                         String clientAddress, Boolean remote, int eventLoops, Integer connectionsOnOneThread,
                         Boolean tcpNoDelay, UdpBuffers udpBuffers, TlsSession tls) {
        this(transport, serverChannel, clientChannel, serverAddress, clientAddress, remote, eventLoops,
                connectionsOnOneThread, tcpNoDelay, udpBuffers, tls, null);
    }

    /** A pair that never opened: only what the spec said. */
    public static EchoPairSetup unopened(Transport transport, int eventLoops) {
        return new EchoPairSetup(transport, null, null, null, null, false, eventLoops, null, null, null, null);
    }
}
