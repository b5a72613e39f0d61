package io.loopbench.engine.protocol.http;

import io.loopbench.engine.protocol.MessageFraming;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import io.netty.util.AsciiString;

/**
 * HTTP/1.1's framing: each message is the body of one {@code POST /echo} request with {@code Host} and
 * {@code Content-Length}, echoed as the body of a {@code 200} response with {@code Content-Length}; a response of
 * another status carries no echo. The server refuses, unechoed but answered (so that the responses to the requests
 * pipelined behind stay in step), another path with 404, another method on the path with 405, and a body its check
 * rejects with 400. The headers of a message of the payload size are built once, read-only, and shared by every
 * request or response: a message costs its request or response object and nothing more. Immutable.
 */
final class HttpFraming implements MessageFraming {

    /** Longest request target quoted in an error. */
    private static final int QUOTED_URI_CHARS = 64;

    private final int payloadBytes;
    private final HttpHeaders requestHeaders;
    private final HttpHeaders responseHeaders;

    /** @param host the {@code Host} header's value: the server's {@code host:port} */
    HttpFraming(String host, int payloadBytes) {
        this.payloadBytes = payloadBytes;
        this.requestHeaders = new ReadOnlyHttpHeaders(false, HttpHeaderNames.HOST, AsciiString.of(host),
                HttpHeaderNames.CONTENT_LENGTH, AsciiString.of(Integer.toString(payloadBytes)));
        this.responseHeaders = contentLength(payloadBytes);
    }

    private static HttpHeaders contentLength(int bytes) {
        return new ReadOnlyHttpHeaders(false, HttpHeaderNames.CONTENT_LENGTH, AsciiString.of(Integer.toString(bytes)));
    }

    @Override
    public Object wrap(ByteBuf message) {
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, Http.PATH, message, requestHeaders,
                EmptyHttpHeaders.INSTANCE);
    }

    @Override
    public ByteBuf content(Object msg) {
        if (msg instanceof FullHttpRequest r) {
            return HttpMethod.POST.equals(r.method()) && Http.PATH.equals(r.uri()) ? r.content() : null;
        }
        if (msg instanceof FullHttpResponse r) {
            return r.status().code() == HttpResponseStatus.OK.code() ? r.content() : null;
        }
        return null;
    }

    @Override
    public Object reply(Object request) {
        ByteBuf body = ((FullHttpRequest) request).content();
        int length = body.readableBytes();
        // A server told the payload size gets messages of that size; one that is not (a target's peer) echoes any.
        HttpHeaders headers = length == payloadBytes ? responseHeaders : contentLength(length);
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body, headers,
                EmptyHttpHeaders.INSTANCE);
    }

    @Override
    public Object refusal(Object request) {
        if (!(request instanceof FullHttpRequest r)) {
            return null;
        }
        HttpHeaders headers = new DefaultHttpHeaders().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        HttpResponseStatus status;
        if (!Http.PATH.equals(r.uri())) {
            status = HttpResponseStatus.NOT_FOUND;
        } else if (!HttpMethod.POST.equals(r.method())) {
            status = HttpResponseStatus.METHOD_NOT_ALLOWED;
            headers.set(HttpHeaderNames.ALLOW, HttpMethod.POST.asciiName());
        } else {
            status = HttpResponseStatus.BAD_REQUEST;
        }
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER, headers,
                EmptyHttpHeaders.INSTANCE);
    }

    @Override
    public String describe(Object msg) {
        if (msg instanceof FullHttpRequest r) {
            return describe(r.method(), r.uri());
        }
        if (msg instanceof FullHttpResponse r) {
            return "a response " + r.status();
        }
        return "a " + msg.getClass().getSimpleName();
    }

    /** A request without content, in the words of both executions' servers. */
    static String describe(HttpMethod method, String uri) {
        return "a request " + method + " "
                + (uri.length() > QUOTED_URI_CHARS ? uri.substring(0, QUOTED_URI_CHARS) + "…" : uri);
    }
}
