package io.loopbench.engine.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.Queue;

/**
 * Copies every read — the bytes on the wire, when first in the pipeline, before any codec — into a queue and passes
 * it on, for a test to inspect what a protocol sends. Confined to its channel's event loop; the queue is the test's,
 * and thread-safe.
 */
public final class RawReads extends ChannelInboundHandlerAdapter {
    private final Queue<byte[]> reads;

    public RawReads(Queue<byte[]> reads) {
        this.reads = reads;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        reads.add(ByteBufUtil.getBytes((ByteBuf) msg));
        ctx.fireChannelRead(msg);
    }
}
