package io.loopbench.engine.loop;

import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Violation;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code virtual-threads} execution runs on the JDK's own virtual-thread scheduler, as applications do. A read that
 * finds no data parks its virtual thread; the JDK's poller, a thread of its own, unparks it when the socket is
 * readable, and the carrier is woken to run it: two thread hand-offs per message that an event loop does not pay,
 * which is why a 1 × 1 ping-pong runs slower than netty's with its two ends on two loops (docs/performance.md, "Execution styles"). The JDK
 * sizes that scheduler once per JVM, from {@value #PARALLELISM} and {@value #MAX_POOL_SIZE}; a run therefore needs
 * a JVM started with both set to its {@code ioThreads} ({@link #jvmOptions}), which forked workers and the
 * {@code loopbench} script do. Thread-safe.
 */
public final class VirtualThreads {

    static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";
    static final String MAX_POOL_SIZE = "jdk.virtualThreadScheduler.maxPoolSize";
    /** The class of the JDK's carrier threads (internal; only counted by name). */
    private static final String CARRIER_CLASS = "jdk.internal.misc.CarrierThread";

    static final long JOIN_MILLIS = TimeUnit.SECONDS.toMillis(3);
    /** Virtual threads started by repetitions and not yet ended. */
    private static final AtomicInteger LIVE = new AtomicInteger();

    private VirtualThreads() {
    }

    /** The JVM options that give a JVM's virtual threads exactly {@code carriers} carrier threads. */
    public static List<String> jvmOptions(int carriers) {
        return List.of("-D" + PARALLELISM + "=" + carriers, "-D" + MAX_POOL_SIZE + "=" + carriers);
    }

    /** This JVM's fixed number of carriers, or empty when its options do not fix it (it then follows the CPUs). */
    public static Optional<Integer> configuredCarriers() {
        try {
            String parallelism = System.getProperty(PARALLELISM);
            String maxPoolSize = System.getProperty(MAX_POOL_SIZE);
            if (parallelism == null || maxPoolSize == null || !parallelism.equals(maxPoolSize)) {
                return Optional.empty();
            }
            return Optional.of(Integer.parseInt(parallelism));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Why this JVM cannot run the spec's virtual threads on {@code ioThreads} carriers, if it cannot. */
    public static Optional<Violation> violation(RunSpec spec) {
        if (spec.execution() != Execution.VIRTUAL_THREADS
                || configuredCarriers().filter(n -> n.equals(spec.ioThreads())).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(new Violation("ioThreads", String.valueOf(spec.ioThreads()),
                configuredCarriers().map(n -> n + ", the number of virtual-thread carriers of the JVM that measures")
                        .orElse("the number of virtual-thread carriers of the JVM that measures, which leaves it "
                                + "unfixed")
                        + " (the JDK sizes its scheduler once per JVM; start that JVM with "
                        + String.join(" ", jvmOptions(spec.ioThreads())) + ", as forked workers and ./loopbench do)"));
    }

    /** Starts a named virtual thread of the JDK's scheduler, counted live until it ends. */
    public static Thread start(String name, Runnable task) {
        LIVE.incrementAndGet();
        return Thread.ofVirtual().name(name).start(() -> {
            try {
                task.run();
            } finally {
                LIVE.decrementAndGet();
            }
        });
    }

    /** Waits, 3 s at most in all, until the threads have ended. */
    public static void joinAll(List<Thread> threads) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MILLIS);
        try {
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Virtual threads started by repetitions that have not ended yet. */
    public static int live() {
        return LIVE.get();
    }

    /** The JDK's carrier threads alive now: those that have carried virtual threads (idle ones end after 30 s). */
    public static int carrierThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getClass().getName().equals(CARRIER_CLASS)).count();
    }
}
