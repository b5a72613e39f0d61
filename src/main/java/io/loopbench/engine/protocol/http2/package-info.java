/**
 * HTTP/2 without TLS ({@code h2c}, prior knowledge): Netty's {@code Http2FrameCodec} on both ends, each message one
 * {@code POST /echo} stream, its frames gathered into one message object and back by {@link
 * io.loopbench.engine.protocol.http2.Http2Messages}.
 */
package io.loopbench.engine.protocol.http2;
