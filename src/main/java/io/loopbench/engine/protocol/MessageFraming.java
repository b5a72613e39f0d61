package io.loopbench.engine.protocol;

import io.netty.buffer.ByteBuf;

/**
 * How a framed stream carries one message per protocol object on Netty's ends (see
 * {@link EchoProtocol#framing}): a WebSocket frame, or an HTTP request and its response. The client wraps each
 * message it sends and unwraps each echo; the server unwraps each request and builds its reply, or its refusal. The
 * echo ends know a framed protocol only through these five calls, so that a new framing needs no branch there.
 *
 * <p>Implementations are immutable and safe on any thread; each call is made on the end's event loop.
 */
public interface MessageFraming {

    /** Client: the protocol object that carries {@code message} to the server, taking the buffer over. */
    Object wrap(ByteBuf message);

    /**
     * Either end: the message a protocol object carries — a server's request, a client's echo — or null when it
     * carries none (another kind of frame, another path or method, a status other than success). Reads only: the
     * caller still owns {@code msg}.
     */
    ByteBuf content(Object msg);

    /** Server: the echo of a request whose {@link #content} was accepted, taking {@code request} over. */
    Object reply(Object request);

    /**
     * Server: what answers a request that is refused — without content, or with content the server's check
     * rejected — so that a protocol whose requests each get an answer stays in step; null to answer nothing.
     * Reads only: the caller still owns {@code request}.
     */
    Object refusal(Object request);

    /** What a protocol object without content is, for the error that counts it. */
    String describe(Object msg);
}
