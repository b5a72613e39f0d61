package io.loopbench.engine.offload;

import io.netty.channel.ChannelHandlerContext;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;

/**
 * One connection's messages offloaded to virtual threads, one thread per message, their replies written back on the
 * connection's loop in the order the messages came: a message whose work ends early waits for those before it, so
 * that the echo stays in order while the calls run in parallel. Thread ownership: {@link #submit} and the replies run
 * on the connection's event loop; only the work runs on the virtual threads.
 */
public final class OrderedReplies {

    /** What becomes of one message once its work is done; called on the loop. */
    public interface Reply {
        /** Echoes the message ({@code ok}), or refuses it as the check judged it. */
        void done(ChannelHandlerContext ctx, boolean ok);

        /** Releases the message unanswered: its connection closed while it was in work. */
        void release();
    }

    private static final class Pending {
        final Reply reply;
        boolean finished;
        boolean ok;

        Pending(Reply reply) {
            this.reply = reply;
        }
    }

    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final Executor virtualThreads;
    private final OffloadGauge gauge;

    public OrderedReplies(Executor virtualThreads, OffloadGauge gauge) {
        this.virtualThreads = virtualThreads;
        this.gauge = gauge;
    }

    /** Runs {@code work} (the check, the work, the blocking call) on a virtual thread, then replies in order. */
    public void submit(ChannelHandlerContext ctx, BooleanSupplier work, Reply reply) {
        Pending p = new Pending(reply);
        pending.add(p);
        gauge.handed();
        try {
            virtualThreads.execute(() -> {
                gauge.taken();
                boolean ok = false;
                try {
                    ok = work.getAsBoolean();
                } finally {
                    boolean result = ok;
                    try {
                        ctx.executor().execute(() -> finish(ctx, p, result));
                    } catch (RejectedExecutionException e) {
                        reply.release(); // the loop has shut down: the run is over
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            gauge.taken(); // the pool has closed: the run is ending
            finish(ctx, p, false);
        }
    }

    private void finish(ChannelHandlerContext ctx, Pending done, boolean ok) {
        done.ok = ok;
        done.finished = true;
        boolean open = ctx.channel().isActive();
        boolean wrote = false;
        while (!pending.isEmpty() && pending.peekFirst().finished) {
            Pending p = pending.pollFirst();
            if (open) {
                p.reply.done(ctx, p.ok);
                wrote = true;
            } else {
                p.reply.release();
            }
        }
        if (wrote) {
            ctx.flush();
        }
    }
}
