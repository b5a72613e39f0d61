package io.loopbench.engine.loop;

import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Transport;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The event loops of one repetition, owned by it and shut down by {@link #close()}: never Reactor Netty's global
 * resources. {@code shared} is one group of n loops; {@code sharded} is n groups of one loop each. Threads are
 * named {@code loopbench-<transport>-<shard>-<n>} so that tests and profiles can find them. Created and closed by
 * one thread; the groups themselves are thread-safe.
 */
public final class LoopLayout implements AutoCloseable {

    public static final String THREAD_PREFIX = "loopbench-";

    private final IoModel model;
    private final Transport transport;
    private final List<MultiThreadIoEventLoopGroup> groups = new ArrayList<>();
    /** Every loop thread, so that close() returns only once they have ended. */
    private final List<Thread> loopThreads = new java.util.concurrent.CopyOnWriteArrayList<>();

    public LoopLayout(IoModel model, int threads, Transport transport) {
        this.model = model;
        this.transport = transport;
        try {
            int groupCount = model == IoModel.SHARED ? 1 : threads;
            int threadsPerGroup = model == IoModel.SHARED ? threads : 1;
            for (int g = 0; g < groupCount; g++) {
                String name = THREAD_PREFIX + transport.label() + "-" + g + "-";
                DefaultThreadFactory named = new DefaultThreadFactory(name, true);
                AtomicInteger started = new AtomicInteger();
                groups.add(new MultiThreadIoEventLoopGroup(threadsPerGroup, task -> {
                    Thread t = named.newThread(task);
                    // without the factory's per-JVM pool number: profiles of repetitions in one JVM name them alike
                    t.setName(name + started.incrementAndGet());
                    loopThreads.add(t);
                    return t;
                }, Transports.handlerFactory(transport)));
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** Independent groups: 1 for shared, ioThreads for sharded. */
    public int shards() {
        return groups.size();
    }

    /** The group that client {@code i} and its server peer run on. */
    public EventLoopGroup groupForClient(int clientIndex) {
        return groups.get(clientIndex % groups.size());
    }

    public EventLoopGroup group(int shard) {
        return groups.get(shard);
    }

    /** Every loop (thread) of the layout: as many as ioThreads. */
    public List<EventLoop> loops() {
        List<EventLoop> loops = new ArrayList<>();
        for (MultiThreadIoEventLoopGroup g : groups) {
            for (EventExecutor e : g) {
                loops.add((EventLoop) e);
            }
        }
        return loops;
    }

    IoModel model() {
        return model;
    }

    Transport transport() {
        return transport;
    }

    /**
     * Shuts every loop down with no quiet period and waits (bounded) until their threads have ended, not only their
     * executors: a thread still winding down after its executor terminated would outlive the repetition.
     */
    @Override
    public void close() {
        for (MultiThreadIoEventLoopGroup g : groups) {
            g.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        }
        for (MultiThreadIoEventLoopGroup g : groups) {
            g.terminationFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        for (Thread t : loopThreads) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
