package io.loopbench.engine;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;

import java.util.concurrent.TimeUnit;

/**
 * The echo server's last handler, one per accepted TCP connection or per UDP server socket: checks the header,
 * runs the configured work, and writes the same buffer back (to the sender, for UDP), flushing once per read
 * batch. Thread ownership: confined to its channel's event loop; errors go to the shared, thread-safe
 * {@link ServerStats}.
 */
final class EchoServerHandler extends ChannelInboundHandlerAdapter {

    private final int work;
    private final ServerStats stats;
    private final ServerFault fault;
    private final ChannelFutureListener[] sendListeners = {sendListener(0), sendListener(1)};
    private boolean pendingFlush;

    EchoServerHandler(int work, ServerStats stats, ServerFault fault) {
        this.work = work;
        this.stats = stats;
        this.fault = fault;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // Reactor Netty manages reads manually; this handler consumes every message, so read continuously.
        ctx.channel().config().setAutoRead(true);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf m = msg instanceof DatagramPacket p ? p.content() : (ByteBuf) msg;
        int at = m.readerIndex();
        if (m.readableBytes() < MessageFormat.HEADER_BYTES || !MessageFormat.hasValidHeader(m, at)) {
            stats.contentErrors[MessageFormat.MEASURED_TAG].increment();
            stats.noteError("server: malformed message of " + m.readableBytes() + " bytes");
            ReferenceCountUtil.release(msg);
            return;
        }
        byte tag = MessageFormat.tag(m, at);
        if (work > 0) {
            Work.run(work, m.getByte(m.writerIndex() - 1));
        }
        // The echo takes over the received buffer: no copy, and one release when the write completes.
        Object echo = msg instanceof DatagramPacket p ? new DatagramPacket(m, p.sender()) : m;
        if (fault != null) {
            if (fault.drop()) {
                ReferenceCountUtil.release(echo);
                return;
            }
            long delay = fault.delayNanos();
            if (delay > 0) {
                ctx.executor().schedule(() -> ctx.writeAndFlush(echo).addListener(sendListeners[tag]),
                        delay, TimeUnit.NANOSECONDS);
                return;
            }
        }
        ctx.write(echo).addListener(sendListeners[tag]);
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
        stats.exceptions[MessageFormat.MEASURED_TAG].increment();
        stats.noteError("server: " + cause);
    }

    private ChannelFutureListener sendListener(int tag) {
        return f -> {
            if (!f.isSuccess()) {
                stats.sendFailures[tag].increment();
                stats.noteError("server: send failed: " + f.cause());
            }
        };
    }
}
