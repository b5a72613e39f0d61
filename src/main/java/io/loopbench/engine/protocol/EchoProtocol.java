package io.loopbench.engine.protocol;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * One protocol, as the engine reaches it: how to bind an echo server and connect a client on Netty event loops
 * through Reactor Netty (the netty and reactive executions; with the JDK's blocking sockets too, for virtual threads,
 * where it is a {@link BlockingProtocol}) — and
 * whether its messages travel in one byte stream or one datagram each, which is all the client window and the
 * repetition know of it. How a message is framed, sent and received follows from that: a stream carries messages back
 * to back, cut into frames of the payload size on arrival, or one per protocol object ({@link #framing}); a datagram
 * carries one.
 *
 * <p>Implementations are stateless but for what a TLS protocol records of its first handshake, each in a package of
 * its own, registered by the engine's {@code Protocols}; one instance serves one repetition.
 * Their sockets carry the options every loopbench end has, so that a figure never depends on which end opened them.
 */
public interface EchoProtocol {

    /** How long binding a server, connecting a client, or any other step of opening a pair may take. */
    Duration SETUP_TIMEOUT = Duration.ofSeconds(10);

    /**
     * True for a byte stream (TCP): messages are cut from it as frames of the payload size, come back once each and in
     * order, and several may share one write. False for datagrams (UDP): one message per datagram, which may be lost
     * (the client counts it after its loss timeout) or overtaken by a later one.
     */
    boolean stream();

    /**
     * How a stream's messages travel one per protocol object on Netty's ends (WebSocket frames, HTTP requests and
     * responses): they still come back once each and in order, but are never gathered into one write or cut from the
     * bytes — each is written as its own object and each object read is one message. Null for a plain byte stream
     * and for datagrams.
     *
     * @param server       the server a client's connection goes to, or a server end's own address: what a request
     *                     names (HTTP's {@code Host})
     * @param payloadBytes every message's size
     */
    default MessageFraming framing(InetSocketAddress server, int payloadBytes) {
        return null;
    }

    /**
     * Binds an echo server on Netty loops. Each of its ends — an accepted connection, or the one datagram socket — is
     * handed to {@code ends} on its loop once configured, before it reads, to add the echo to.
     *
     * @param payloadBytes the largest message the server expects
     * @param accepted     every accepted connection joins it, so that the server's owner can close them
     */
    DisposableChannel bind(EventLoopGroup loops, InetSocketAddress address, int payloadBytes, ChannelGroup accepted,
                           Consumer<Connection> ends);

    /** Connects one client on Netty loops; {@code attach} gets the connection on its loop once it is connected. */
    Connection connect(EventLoopGroup loops, InetSocketAddress server, int payloadBytes, Consumer<Connection> attach);

    /** The HTTP/2 settings both ends announce; null for a protocol without HTTP/2. */
    default Http2Setup http2Setup() {
        return null;
    }

    /** What the first client connection's TLS handshake negotiated; null for a protocol without TLS. */
    default TlsSession tlsSession() {
        return null;
    }
}
