package io.loopbench.engine.server;

import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.offload.HandOff;
import io.loopbench.engine.offload.OffloadGauge;
import io.loopbench.engine.offload.OrderedReplies;
import io.loopbench.engine.protocol.MessageFraming;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ReferenceCountUtil;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code netty} execution: the echo server's last handler, one per accepted connection of a stream or per datagram
 * server socket: checks each message's header, runs the configured work, and sends the same bytes back, flushing once
 * per read batch. A stream: the complete frames of a read batch are checked in place in the cumulation buffer and
 * echoed as one retained slice (one write, no copy); a partial frame waits for its remaining bytes. Datagrams: each
 * datagram's buffer goes back to its sender. A framed protocol (WebSocket, HTTP): each protocol object is one message,
 * unwrapped and answered as its {@link MessageFraming} says — its content checked as a message and echoed in its
 * reply, or, for one without a message or with a malformed one, counted and answered with its refusal. With an
 * executor offload the whole handler runs on the executor Netty pins its channel to; with a virtual-threads offload
 * each message's check and work run on a virtual thread of their own and the replies go out in order
 * ({@link OrderedReplies}). Thread ownership: confined to its channel's event loop (or its pinned executor); errors go
 * to the shared, thread-safe {@link ServerStats}.
 */
public final class EchoServerHandler extends ByteToMessageDecoder {

    private final int payloadBytes;
    private final ServerCheck check;
    private final ServerStats stats;
    private final ServerFault fault;
    /** One message per protocol object (see EchoProtocol#framing); null for a plain stream and datagrams. */
    private final MessageFraming framing;
    /** Virtual-threads offload: each message's work on a virtual thread, replies in order; null otherwise. */
    private final OrderedReplies ordered;
    /** Executor offload: counts each read taken from the loop's {@link HandOff}; null otherwise. */
    private final OffloadGauge handedOff;
    private boolean pendingFlush;

    /** @param fault injected into every echo; null for none */
    public EchoServerHandler(int payloadBytes, ServerCheck check, ServerFault fault, MessageFraming framing) {
        this(payloadBytes, check, fault, framing, null, null);
    }

    /**
     * @param virtualThreads where each message's work runs, one virtual thread per message; null on this handler's
     *                       own thread
     * @param handedOff      the gauge its reads are counted in by a {@link HandOff} before it; null without one
     */
    public EchoServerHandler(int payloadBytes, ServerCheck check, ServerFault fault, MessageFraming framing,
                             Executor virtualThreads, OffloadGauge handedOff) {
        this.payloadBytes = payloadBytes;
        this.check = check;
        this.stats = check.stats();
        this.fault = fault;
        this.framing = framing;
        this.ordered = virtualThreads != null ? new OrderedReplies(virtualThreads, check.gauge()) : null;
        this.handedOff = handedOff;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // Reactor Netty manages reads manually; this handler consumes every message, so read continuously.
        ctx.channel().config().setAutoRead(true);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (handedOff != null) {
            handedOff.taken();
        }
        if (ordered != null) {
            offloaded(ctx, msg);
        } else if (msg instanceof DatagramPacket p) {
            ByteBuf m = p.content();
            if (!check.accept(m)) {
                p.release();
                return;
            }
            // The echo takes over the received buffer: no copy, one release when the write completes.
            echo(ctx, new DatagramPacket(m, p.sender()));
        } else if (framing != null) {
            framed(ctx, msg);
        } else {
            super.channelRead(ctx, msg);
        }
    }

    private void framed(ChannelHandlerContext ctx, Object msg) {
        ByteBuf m = framing.content(msg);
        if (m != null && check.accept(m)) {
            echo(ctx, framing.reply(msg));
            return;
        }
        if (m == null) {
            check.refused(framing.describe(msg)); // a malformed message was counted by the check
        }
        refuse(ctx, msg);
    }

    private void refuse(ChannelHandlerContext ctx, Object msg) {
        Object refusal = framing.refusal(msg);
        ReferenceCountUtil.release(msg);
        if (refusal != null) {
            ctx.write(refusal, ctx.voidPromise());
            pendingFlush = true;
        }
    }

    /** Virtual-threads offload: every message's check and work on its own virtual thread; replies in order. */
    private void offloaded(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof DatagramPacket p) {
            ByteBuf m = p.content();
            ordered.submit(ctx, () -> check.accept(m), new OrderedReplies.Reply() {
                @Override
                public void done(ChannelHandlerContext c, boolean ok) {
                    if (ok) {
                        echo(c, new DatagramPacket(m, p.sender()));
                    } else {
                        p.release();
                    }
                }

                @Override
                public void release() {
                    p.release();
                }
            });
        } else if (framing != null) {
            ByteBuf m = framing.content(msg);
            if (m == null) {
                framed(ctx, msg); // no message to work on: refused at once, as on the loop
                return;
            }
            ordered.submit(ctx, () -> check.accept(m), new OrderedReplies.Reply() {
                @Override
                public void done(ChannelHandlerContext c, boolean ok) {
                    if (ok) {
                        echo(c, framing.reply(msg));
                    } else {
                        refuse(c, msg);
                    }
                }

                @Override
                public void release() {
                    ReferenceCountUtil.release(msg);
                }
            });
        } else {
            super.channelRead(ctx, msg); // decode() cuts the frames and submits each
        }
    }

    /** A stream's frame offloaded: echoed alone once its work is done. */
    private void offloadFrame(ChannelHandlerContext ctx, ByteBuf frame) {
        ordered.submit(ctx, () -> check.accept(frame), new OrderedReplies.Reply() {
            @Override
            public void done(ChannelHandlerContext c, boolean ok) {
                if (ok) {
                    echo(c, frame);
                } else {
                    frame.release();
                }
            }

            @Override
            public void release() {
                frame.release();
            }
        });
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int frames = in.readableBytes() / payloadBytes;
        if (frames == 0) {
            return;
        }
        if (ordered != null) {
            for (int i = 0; i < frames; i++) {
                offloadFrame(ctx, in.readRetainedSlice(payloadBytes));
            }
            return;
        }
        int start = in.readerIndex();
        int good = 0;
        for (int i = 0; i < frames; i++) {
            int at = start + i * payloadBytes;
            if (check.accept(in, at, payloadBytes)) {
                good++;
            }
        }
        if (good < frames || fault != null) {
            // Rare paths (malformed frames, injected faults): echo frame by frame so each can be judged alone.
            for (int i = 0; i < frames; i++) {
                int at = in.readerIndex();
                if (MessageFormat.hasValidHeader(in, at)) {
                    echo(ctx, in.readRetainedSlice(payloadBytes));
                } else {
                    in.skipBytes(payloadBytes);
                }
            }
        } else {
            echo(ctx, in.readRetainedSlice(frames * payloadBytes));
        }
    }

    private void echo(ChannelHandlerContext ctx, Object echo) {
        if (fault != null) {
            long stallUntil = System.nanoTime() + fault.stallNanos();
            while (stallUntil - System.nanoTime() > 0) {
                LockSupport.parkNanos(stallUntil - System.nanoTime());
            }
            if (fault.drop()) {
                ReferenceCountUtil.release(echo);
                return;
            }
            ByteBuf message = echo instanceof ByteBufHolder h ? h.content() : (ByteBuf) echo;
            long delay = fault.delayNanos(MessageFormat.clientId(message, message.readerIndex()));
            if (delay > 0) {
                ctx.executor().schedule(() -> ctx.writeAndFlush(echo, ctx.voidPromise()),
                        delay, TimeUnit.NANOSECONDS);
                return;
            }
        }
        // A void promise: a failed write reaches exceptionCaught, which counts it, with no promise per write.
        ctx.write(echo, ctx.voidPromise());
        pendingFlush = true;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (pendingFlush) {
            pendingFlush = false;
            ctx.flush();
        }
        super.channelReadComplete(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        check.exception(cause);
    }
}
