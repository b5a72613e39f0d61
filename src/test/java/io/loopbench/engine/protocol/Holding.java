package io.loopbench.engine.protocol;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A netty echo server end, last in its pipeline, that shows how many messages a client has in flight at once: holds
 * the requests of its connection until {@code window} wait, then answers them all, in order, with one flush; requests
 * that stop short of a window (a phase's last) are answered after 50 ms without another. Confined to its channel's
 * event loop; the counters are the test's.
 */
public final class Holding extends ChannelInboundHandlerAdapter {
    private final MessageFraming framing;
    private final int window;
    private final AtomicInteger mostHeld;
    private final AtomicInteger fullBatches;
    private final List<Object> held = new ArrayList<>();
    private ScheduledFuture<?> idle;

    /**
     * @param mostHeld    raised to the most requests ever held at once
     * @param fullBatches counts the times {@code window} requests were held
     */
    public Holding(MessageFraming framing, int window, AtomicInteger mostHeld, AtomicInteger fullBatches) {
        this.framing = framing;
        this.window = window;
        this.mostHeld = mostHeld;
        this.fullBatches = fullBatches;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        held.add(msg);
        mostHeld.accumulateAndGet(held.size(), Math::max);
        if (idle != null) {
            idle.cancel(false);
        }
        if (held.size() == window) {
            fullBatches.incrementAndGet();
            answer(ctx);
        } else {
            idle = ctx.executor().schedule(() -> answer(ctx), 50, TimeUnit.MILLISECONDS);
        }
    }

    private void answer(ChannelHandlerContext ctx) {
        for (Object request : held) {
            ctx.write(framing.reply(request));
        }
        held.clear();
        ctx.flush();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        held.forEach(ReferenceCountUtil::release);
        held.clear();
    }
}
