package io.loopbench.engine.protocol.http2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Frame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;

/**
 * Between Netty's {@code Http2FrameCodec} and an echo end (after the codec, which opens a client's streams for it): gathers each stream's HEADERS and DATA frames into one
 * {@link Http2Message}, handed on when the stream's last frame arrives, and writes each {@link Http2Message} as its
 * HEADERS and DATA frames — on a new stream for a client's request, on the request's stream for a server's reply. It
 * returns each DATA frame's bytes to the flow controller as it reads them (the frame codec leaves that to its user;
 * the codec widens the connection's window itself: {@link Http2#CONNECTION_WINDOW_BYTES}). Streams then complete in
 * the order they were written, so each connection's echoes stay in order. Thread ownership: confined to its channel's
 * event loop.
 */
final class Http2Messages extends Http2ChannelDuplexHandler {

    /** Each stream's flow-control window (see Http2.SETTINGS): 16 MiB. */
    static final int WINDOW_BYTES = 16 << 20;
    /** The payload of a client's first PING: "loopbench" would not fit; "lpbready" does. */
    private static final long READY_PING = 0x6c70627265616479L;

    private final IntObjectMap<Gathering> gathering = new IntObjectHashMap<>();
    private boolean pendingFlush;
    private final boolean client;
    private Promise<Void> ready;

    private static final class Gathering {
        final Http2Headers headers;
        ByteBuf body;

        Gathering(Http2Headers headers) {
            this.headers = headers;
        }
    }

    /** @param client a client's end, which pings the server once and is ready when the answer comes */
    Http2Messages(boolean client) {
        this.client = client;
    }

    @Override
    protected void handlerAdded0(ChannelHandlerContext ctx) {
        ready = ctx.executor().newPromise();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.fireChannelActive();
        if (client) {
            ctx.writeAndFlush(new DefaultHttp2PingFrame(READY_PING));
        } else {
            ready.trySuccess(null);
        }
    }

    /**
     * Done when the connection is ready for a window of messages: at once on a server; on a client when the server
     * has answered its first PING, having sent its SETTINGS and widened the connection's window before (TCP keeps the
     * order). A client that sent its first messages earlier would have them held back by the initial 64 KiB window,
     * one of them written in part, and the streams would then complete out of order.
     */
    Future<Void> ready() {
        return ready;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http2HeadersFrame h) {
            if (h.isEndStream()) {
                ctx.fireChannelRead(new Http2Message(h.stream(), h.headers(), Unpooled.EMPTY_BUFFER));
            } else {
                gathering.put(h.stream().id(), new Gathering(h.headers()));
            }
        } else if (msg instanceof Http2DataFrame d) {
            data(ctx, d);
        } else if (msg instanceof Http2PingFrame p) {
            if (p.ack() && p.content() == READY_PING) {
                ready.trySuccess(null);
            }
        } else if (msg instanceof Http2Frame) {
            // resets, window updates, settings, pings: the codec has acted on them; an echo end has nothing to do
            ReferenceCountUtil.release(msg);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void data(ChannelHandlerContext ctx, Http2DataFrame d) {
        Http2FrameStream stream = d.stream();
        if (d.initialFlowControlledBytes() > 0) {
            ctx.write(new DefaultHttp2WindowUpdateFrame(d.initialFlowControlledBytes()).stream(stream),
                    ctx.voidPromise());
            pendingFlush = true;
        }
        Gathering g = gathering.get(stream.id());
        if (g == null) { // DATA before HEADERS: a protocol error the codec lets through; nothing to echo
            d.release();
            return;
        }
        ByteBuf piece = d.content();
        if (g.body == null) {
            g.body = piece;
        } else {
            CompositeByteBuf whole = g.body instanceof CompositeByteBuf c ? c : ctx.alloc().compositeBuffer()
                    .addComponent(true, g.body);
            g.body = whole.addComponent(true, piece);
        }
        if (d.isEndStream()) {
            gathering.remove(stream.id());
            ctx.fireChannelRead(new Http2Message(stream, g.headers, g.body));
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (pendingFlush) {
            pendingFlush = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof Http2Message m)) {
            ctx.write(msg, promise);
            return;
        }
        Http2FrameStream stream = m.stream != null ? m.stream : newStream();
        if (!m.content().isReadable()) {
            m.release();
            ctx.write(new DefaultHttp2HeadersFrame(m.headers, true).stream(stream), promise);
            return;
        }
        ctx.write(new DefaultHttp2HeadersFrame(m.headers, false).stream(stream), ctx.voidPromise());
        ctx.write(new DefaultHttp2DataFrame(m.content(), true).stream(stream), promise);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        for (Gathering g : gathering.values()) {
            if (g.body != null) {
                g.body.release();
            }
        }
        gathering.clear();
    }
}
