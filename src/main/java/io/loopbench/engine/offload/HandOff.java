package io.loopbench.engine.offload;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The loop's side of an executor offload in a Netty pipeline: counts each read it passes on to the handler that runs
 * on the offload's executor, which counts it taken (see {@link OffloadUse#queuePeak()}). Stateless; shared by every
 * connection of a repetition.
 */
@ChannelHandler.Sharable
public final class HandOff extends ChannelInboundHandlerAdapter {

    private final OffloadGauge gauge;

    public HandOff(OffloadGauge gauge) {
        this.gauge = gauge;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        gauge.handed();
        ctx.fireChannelRead(msg);
    }
}
