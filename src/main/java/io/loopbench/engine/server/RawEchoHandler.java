package io.loopbench.engine.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;

import java.util.concurrent.atomic.LongAdder;

/**
 * Echoes bytes verbatim, knowing nothing of their framing: a stream's every buffer back as it came, every datagram
 * back to its sender; flushes once per read batch. A standing echo server uses it when it is not told the clients'
 * message size. Confined to its channel's event loop; counts into the thread-safe {@link Counts}.
 */
public final class RawEchoHandler extends ChannelInboundHandlerAdapter {

    /** What the raw echo has done so far; thread-safe. */
    public static final class Counts {
        final LongAdder bytes = new LongAdder();
        final LongAdder datagrams = new LongAdder();
        final LongAdder errors = new LongAdder();

        public long bytes() {
            return bytes.sum();
        }

        /** Bytes echoed by a raw echo that is not this handler (gRPC's service: its messages' bytes). */
        public void echoed(int n) {
            bytes.add(n);
        }

        public long datagrams() {
            return datagrams.sum();
        }

        public long errors() {
            return errors.sum();
        }
    }

    private final Counts counts;
    private boolean pendingFlush;

    public RawEchoHandler(Counts counts) {
        this.counts = counts;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // Reactor Netty manages reads manually; this handler consumes everything, so read continuously.
        ctx.channel().config().setAutoRead(true);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Object echo;
        if (msg instanceof DatagramPacket p) {
            counts.bytes.add(p.content().readableBytes());
            counts.datagrams.increment();
            echo = new DatagramPacket(p.content(), p.sender());
        } else {
            counts.bytes.add(((ByteBuf) msg).readableBytes());
            echo = msg;
        }
        // A failed write reaches exceptionCaught through the void promise.
        ctx.write(echo, ctx.voidPromise());
        pendingFlush = true;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (pendingFlush) {
            pendingFlush = false;
            ctx.flush();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counts.errors.increment();
    }
}
