package io.loopbench.engine.protocol.http2;

import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;

/**
 * A frame codec whose flow controller writes each stream's pending DATA whole, the streams in the order their data
 * became ready (a queue). Netty's default distributor takes the streams from a heap, in no set order among equal
 * weights, and shares the bytes among them in quanta of 1 KiB: streams then complete out of order, which an echo of a
 * window of messages counts as an error. With {@link Http2#WATER_MARK} the channel takes a whole window of messages,
 * so every stream is written in the order it was opened. Made per connection, on its loop.
 */
final class InOrderCodec extends Http2FrameCodecBuilder {

    private InOrderCodec(boolean server) {
        // the connection says which end it is: the builder refuses server() beside it
        Http2Connection connection = new DefaultHttp2Connection(server);
        UniformStreamByteDistributor whole = new UniformStreamByteDistributor(connection);
        whole.minAllocationChunk(Http2Messages.WINDOW_BYTES);
        connection.remote().flowController(new DefaultHttp2RemoteFlowController(connection, whole));
        connection(connection);
        initialSettings(Http2.SETTINGS);
    }

    static Http2FrameCodec server() {
        return new InOrderCodec(true).build();
    }

    static Http2FrameCodec client() {
        return new InOrderCodec(false).build();
    }
}
