package io.loopbench.engine.protocol.http2;

import io.loopbench.engine.protocol.MessageFraming;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.ReadOnlyHttp2Headers;
import io.netty.util.AsciiString;

/**
 * h2c's and h2's framing: each message is the body of one {@code POST /echo} stream ({@code :scheme http}, {@code :authority}
 * the server, {@code content-length}), echoed as the body of a {@code 200} response on the same stream; a response of
 * another status carries no echo. The server refuses, unechoed but answered, another path with 404, another method on
 * the path with 405, and a body its check rejects with 400 — as HTTP/1.1's framing does. The headers of a message of
 * the payload size are built once, read-only, and shared. Immutable.
 */
final class Http2Framing implements MessageFraming {

    static final String PATH = "/echo";
    private static final AsciiString POST = HttpMethod.POST.asciiName();

    private final int payloadBytes;
    private final Http2Headers requestHeaders;
    private final Http2Headers responseHeaders;

    /**
     * @param scheme    the {@code :scheme}: {@code http} for h2c, {@code https} for h2
     * @param authority the {@code :authority}: the server's {@code host:port}
     */
    Http2Framing(String scheme, String authority, int payloadBytes) {
        this.payloadBytes = payloadBytes;
        this.requestHeaders = ReadOnlyHttp2Headers.clientHeaders(false, POST, AsciiString.of(PATH),
                AsciiString.of(scheme), AsciiString.of(authority), HttpHeaderNames.CONTENT_LENGTH,
                AsciiString.of(Integer.toString(payloadBytes)));
        this.responseHeaders = response(HttpResponseStatus.OK, payloadBytes);
    }

    private static Http2Headers response(HttpResponseStatus status, int bytes) {
        return ReadOnlyHttp2Headers.serverHeaders(false, status.codeAsText(), HttpHeaderNames.CONTENT_LENGTH,
                AsciiString.of(Integer.toString(bytes)));
    }

    @Override
    public Object wrap(ByteBuf message) {
        return new Http2Message(null, requestHeaders, message);
    }

    @Override
    public ByteBuf content(Object msg) {
        if (!(msg instanceof Http2Message m)) {
            return null;
        }
        if (m.headers.status() != null) {
            return HttpResponseStatus.OK.codeAsText().contentEquals(m.headers.status()) ? m.content() : null;
        }
        return POST.contentEquals(m.headers.method()) && PATH.contentEquals(m.headers.path()) ? m.content() : null;
    }

    @Override
    public Object reply(Object request) {
        Http2Message r = (Http2Message) request;
        int length = r.content().readableBytes();
        return new Http2Message(r.stream, length == payloadBytes ? responseHeaders
                : response(HttpResponseStatus.OK, length), r.content());
    }

    @Override
    public Object refusal(Object request) {
        if (!(request instanceof Http2Message r) || r.stream == null || r.headers.status() != null) {
            return null;
        }
        HttpResponseStatus status = !PATH.contentEquals(r.headers.path()) ? HttpResponseStatus.NOT_FOUND
                : !POST.contentEquals(r.headers.method()) ? HttpResponseStatus.METHOD_NOT_ALLOWED
                : HttpResponseStatus.BAD_REQUEST;
        return new Http2Message(r.stream, response(status, 0), Unpooled.EMPTY_BUFFER);
    }

    @Override
    public String describe(Object msg) {
        if (msg instanceof Http2Message m) {
            return m.headers.status() != null ? "a response " + m.headers.status()
                    : "a request " + m.headers.method() + " " + m.headers.path();
        }
        return "a " + msg.getClass().getSimpleName();
    }
}
