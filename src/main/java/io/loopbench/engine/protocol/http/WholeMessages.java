package io.loopbench.engine.protocol.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Joins what Netty's HTTP decoder reads of one request or response — its head, then its body in one or more
 * pieces — into one {@code FullHttpRequest} or {@code FullHttpResponse}. A body that came in one piece (the usual
 * case: the decoder slices it from the bytes read) is handed on as it is, with no copy and no composite buffer, which
 * Netty's {@code HttpObjectAggregator} would build for every message; a body in several pieces is copied into one
 * buffer.
 *
 * <p>A message that does not decode, or whose body grows past the bound, is an exception, passed on for the echo end
 * to count, and closes the connection (the decoder reads nothing more from it). A connection closed in the middle of a
 * message is not: that is the disconnect the echo end counts, as on TCP. Confined to its channel's event loop.
 */
final class WholeMessages extends ChannelInboundHandlerAdapter {

    private final int maxBytes;
    /** The head of the message being read; null between messages. */
    private HttpMessage head;
    /** Its body's pieces so far, copied, when it comes in more than one; null otherwise. */
    private ByteBuf pieces;

    /** @param maxBytes the largest body accepted in several pieces */
    WholeMessages(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The bound for messages of {@code payloadBytes}: room for any loopbench message, as WebSocket's frames have. */
    static int maxBytes(int payloadBytes) {
        return Math.max(payloadBytes, 64 * 1024);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpMessage m && !(msg instanceof HttpContent)) {
            if (m.decoderResult().isFailure()) {
                fail(ctx, m.decoderResult().cause());
            } else {
                head = m;
            }
        } else if (msg instanceof HttpContent c) {
            content(ctx, c);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void content(ChannelHandlerContext ctx, HttpContent c) {
        if (c.decoderResult().isFailure() || head == null) {
            // A full message here is the decoder's invalid one; a piece without a head follows a failure.
            Throwable cause = c.decoderResult().cause();
            c.release();
            if (cause != null) {
                fail(ctx, cause);
            }
            return;
        }
        if (pieces == null && c instanceof LastHttpContent last) {
            whole(ctx, c.content(), last.trailingHeaders());
            return;
        }
        ByteBuf piece = c.content();
        if (pieces == null) {
            long length = HttpUtil.getContentLength(head, 2L * piece.readableBytes()); // chunked: a guess
            pieces = ctx.alloc().buffer((int) Math.min(length, maxBytes), maxBytes);
        }
        if (piece.readableBytes() > pieces.maxWritableBytes()) {
            c.release();
            fail(ctx, new TooLongFrameException("an HTTP body of more than " + maxBytes + " bytes"));
            return;
        }
        pieces.writeBytes(piece);
        HttpHeaders trailers = c instanceof LastHttpContent last ? last.trailingHeaders() : null;
        c.release();
        if (trailers != null) {
            ByteBuf body = pieces;
            pieces = null;
            whole(ctx, body, trailers);
        }
    }

    /** Hands on the message read, taking {@code body} over. */
    private void whole(ChannelHandlerContext ctx, ByteBuf body, HttpHeaders trailers) {
        HttpMessage h = head;
        head = null;
        ctx.fireChannelRead(h instanceof HttpRequest r
                ? new DefaultFullHttpRequest(r.protocolVersion(), r.method(), r.uri(), body, r.headers(), trailers)
                : new DefaultFullHttpResponse(h.protocolVersion(), ((HttpResponse) h).status(), body, h.headers(),
                        trailers));
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        discard();
        if (!(cause instanceof PrematureChannelClosureException)) {
            ctx.fireExceptionCaught(cause instanceof DecoderException ? cause : new DecoderException(cause));
        }
        ctx.close();
    }

    private void discard() {
        head = null;
        if (pieces != null) {
            pieces.release();
            pieces = null;
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        discard();
    }
}
