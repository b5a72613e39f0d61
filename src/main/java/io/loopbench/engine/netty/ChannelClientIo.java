package io.loopbench.engine.netty;

import io.loopbench.engine.client.ClientIo;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;

import java.util.concurrent.Executor;

/**
 * A client's IO on one Netty channel whose loop owns the client — Reactor Netty's connection, grpc-java's channel —
 * writing each message through its own library: what every such owner shares, its loop (taken while the channel is
 * registered: a closed channel forgets it, yet the client still runs the rest of its phase there), its timers, and no
 * gathering of a stream's messages into one buffer (each goes through the library's own send). Thread ownership: as
 * {@link ClientIo}, the channel's loop.
 */
public abstract class ChannelClientIo implements ClientIo {

    protected final Channel channel;
    protected final EventLoop loop;

    protected ChannelClientIo(Channel channel) {
        this.channel = channel;
        this.loop = channel.eventLoop();
    }

    @Override
    public Executor executor() {
        return loop;
    }

    @Override
    public Object histogramOwner() {
        return loop;
    }

    @Override
    public boolean isActive() {
        return channel.isActive();
    }

    @Override
    public boolean gathers() {
        return false;
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        return ClientIo.schedule(loop, task, delayNanos);
    }

    @Override
    public Cancellable every(Runnable task, long periodNanos) {
        return ClientIo.every(loop, task, periodNanos);
    }
}
