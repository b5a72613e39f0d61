package io.loopbench.engine.protocol.http2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * One HTTP/2 stream's request or response as a whole: its headers and its body, on its stream (null for a client's
 * request not yet sent, which {@link Http2Messages} opens a stream for). Owns its body; its headers are read-only.
 */
final class Http2Message extends DefaultByteBufHolder {

    final Http2FrameStream stream;
    final Http2Headers headers;

    Http2Message(Http2FrameStream stream, Http2Headers headers, ByteBuf body) {
        super(body);
        this.stream = stream;
        this.headers = headers;
    }
}
