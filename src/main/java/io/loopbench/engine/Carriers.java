package io.loopbench.engine;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;

/**
 * {@code virtual-threads} execution: the carrier threads of one repetition — a work-stealing pool of exactly
 * {@code ioThreads} platform threads named {@code loopbench-carrier-<n>}, as the JDK's own virtual-thread scheduler
 * is but sized per run — and the virtual threads started on it. Closed by the thread that made it, which then
 * waits for the carriers to end.
 *
 * <p>The JDK has no public API to run virtual threads on a scheduler of one's own, and its default scheduler is
 * sized once per JVM ({@code jdk.virtualThreadScheduler.parallelism}); the package-private builder that takes a
 * scheduler is therefore reached by reflection, which needs {@value #ADD_OPENS}. The JDK's socket pollers stay
 * outside these carriers: in its default mode on Linux they are virtual threads of the default scheduler.
 */
final class Carriers implements AutoCloseable {

    /** Guarded by the class: whether {@link #startJdkPollers()} has run in this JVM. */
    private static boolean jdkPollersStarted;

    static final String THREAD_PREFIX = "loopbench-carrier-";
    static final String ADD_OPENS = "--add-opens java.base/java.lang=ALL-UNNAMED";

    private final ForkJoinPool pool;
    private final Thread.Builder.OfVirtual builder;
    private final List<Thread> carrierThreads = new CopyOnWriteArrayList<>();

    Carriers(int count) {
        startJdkPollers();
        pool = new ForkJoinPool(count, p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            t.setName(THREAD_PREFIX + carrierThreads.size());
            carrierThreads.add(t);
            return t;
        }, null, true, 0, count, 1, p -> true, 30, TimeUnit.SECONDS);
        try {
            builder = virtualThreadBuilder(pool);
        } catch (RuntimeException e) {
            pool.shutdownNow();
            throw e;
        }
    }

    /** Starts a named virtual thread on these carriers. */
    Thread start(String name, Runnable task) {
        return builder.name(name).start(task);
    }

    /** How many carrier threads the pool has started so far: at most {@code ioThreads}. */
    int started() {
        return carrierThreads.size();
    }

    @Override
    public void close() {
        pool.shutdownNow();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
            for (Thread t : carrierThreads) {
                t.join(TimeUnit.SECONDS.toMillis(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The JDK starts its socket pollers, once per JVM, when a virtual thread first waits on a socket, and a virtual
     * thread started without a scheduler inherits its starter's: were that first waiter one of ours, the pollers
     * would run on — and die with — a repetition's carriers, and every later repetition would wait forever. So a
     * virtual thread of the default scheduler waits on a socket first.
     */
    private static synchronized void startJdkPollers() {
        if (jdkPollersStarted) {
            return;
        }
        jdkPollersStarted = true;
        Thread t = Thread.ofVirtual().name("loopbench-poller-start").start(() -> {
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
                s.setSoTimeout(1);
                s.receive(new DatagramPacket(new byte[1], 1));
            } catch (IOException expected) {
                // the timeout: the wait has happened, which is all that was needed
            }
        });
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread.Builder.OfVirtual virtualThreadBuilder(Executor scheduler) {
        try {
            Constructor<?> c = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder")
                    .getDeclaredConstructor(Executor.class);
            c.setAccessible(true);
            return (Thread.Builder.OfVirtual) c.newInstance(scheduler);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("virtual-threads execution runs its virtual threads on ioThreads carrier "
                    + "threads, which needs the JVM option " + ADD_OPENS + " (" + e + ")", e);
        }
    }
}
