/**
 * HTTP/2 without TLS ({@code h2c}, prior knowledge) or over it ({@code h2}, agreed by ALPN), each message one
 * {@code POST /echo} stream: on the netty execution Netty's {@code Http2FrameCodec} on both ends, each stream's frames
 * gathered into one message object and back by {@link io.loopbench.engine.protocol.http2.Http2Messages}; on the
 * reactive execution Reactor Netty's {@code HttpServer} and {@code HttpClient}.
 */
package io.loopbench.engine.protocol.http2;
