package io.loopbench.engine.netty;

import io.loopbench.engine.client.ClientIo;
import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.protocol.MessageFraming;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ReferenceCountUtil;

import java.util.List;
import java.util.concurrent.Executor;

/**
 * {@code netty} execution: an {@link EchoClient} as the last handler of its channel's pipeline. A stream's frames
 * are handed over in Netty's cumulation buffer, datagrams one by one, and a framed protocol's messages (WebSocket
 * frames, HTTP responses) one by one as its {@link MessageFraming} unwraps them — written one per protocol object,
 * never gathered; a read batch ends with one flush. Thread ownership: confined to the channel's event loop.
 */
final class EchoClientHandler extends ByteToMessageDecoder implements ClientIo {

    private final EchoClient client;
    /** One message per protocol object (see EchoProtocol#framing); null for a plain stream and datagrams. */
    private final MessageFraming framing;
    private ChannelHandlerContext ctx;

    EchoClientHandler(EchoClient client, MessageFraming framing) {
        this.client = client;
        this.framing = framing;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        // Reactor Netty turns auto-read off for channels it manages; this handler consumes every message itself,
        // so let the channel read as fast as data comes (also avoids io_uring's manual-read pitfall).
        ctx.channel().config().setAutoRead(true);
        client.attach(this);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof DatagramPacket p) {
            try {
                client.echoed(p.content(), p.content().readerIndex(), p.content().readableBytes());
            } finally {
                p.release();
            }
        } else if (framing != null) {
            try {
                ByteBuf m = framing.content(msg);
                if (m != null) {
                    client.echoed(m, m.readerIndex(), m.readableBytes());
                } else {
                    client.notAnEcho(framing.describe(msg));
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        } else {
            super.channelRead(ctx, msg);
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        client.frames(in);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        client.readComplete();
        super.channelReadComplete(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        client.disconnected();
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        client.released();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        client.exception(cause);
    }

    @Override
    public Executor executor() {
        return ctx.executor();
    }

    @Override
    public Object histogramOwner() {
        return ctx.channel().eventLoop();
    }

    @Override
    public boolean isActive() {
        return ctx.channel().isActive();
    }

    @Override
    public ByteBuf allocate(int bytes) {
        return ctx.alloc().ioBuffer(bytes);
    }

    @Override
    public boolean gathers() {
        return framing == null;
    }

    @Override
    public void write(ByteBuf message, byte tag) {
        // A void promise: a failed write reaches exceptionCaught, which counts it, with no promise per write.
        ctx.write(framing == null ? message : framing.wrap(message), ctx.voidPromise());
    }

    @Override
    public void flush() {
        ctx.flush();
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        return ClientIo.schedule(ctx.executor(), task, delayNanos);
    }

    @Override
    public Cancellable every(Runnable task, long periodNanos) {
        return ClientIo.every(ctx.executor(), task, periodNanos);
    }
}
