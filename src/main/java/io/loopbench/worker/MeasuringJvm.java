package io.loopbench.worker;

import io.loopbench.engine.loop.Transports;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import reactor.util.Loggers;

/**
 * What a JVM that measures (the worker, {@code ./loopbench measure}) sets before Netty or Reactor runs. Threads: any;
 * {@link #prepareInBackground} starts a thread of its own, which {@link #awaitPrepared} joins.
 */
public final class MeasuringJvm {

    private static final String LEAK_DETECTION_LEVEL = "io.netty.leakDetection.level";
    private static final String SLF4J_PROVIDER = "slf4j.provider";

    private static volatile Thread preparing;

    private MeasuringJvm() {
    }

    /**
     * {@link #prepare} and the load of Netty's platform probe and its preferred native transport's library (together
     * some 150 ms of a fresh JVM), on a thread of their own while the caller reads its request; the caller must
     * {@link #awaitPrepared} before it touches Netty or Reactor.
     */
    public static void prepareInBackground() {
        quietSlf4j();
        preparing = Thread.ofPlatform().daemon().name("loopbench-prepare").start(() -> {
            prepare();
            Transports.isAvailable(Transports.AUTO_PREFERENCE.getFirst());
        });
    }

    /** Returns once {@link #prepareInBackground}'s work is done (at once when it was not asked for). */
    public static void awaitPrepared() {
        Thread t = preparing;
        if (t != null) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public static void prepare() {
        // Netty and Reactor log through the JDK's logging here, not SLF4J: the class path's Logback would otherwise
        // configure itself (some 100 ms) before the first echo, for a process that logs next to nothing. Reactor's
        // Loggers asks SLF4J for a logger while it initialises, before useJdkLoggers can say otherwise, so SLF4J is
        // given its no-operation provider first (and told to keep quiet about it): Logback is then never loaded.
        quietSlf4j();
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        Loggers.useJdkLoggers();
        // Netty's leak detector samples buffers on the measured path and costs allocations there; it is off unless a
        // level is asked for (each result records the level in its environment).
        if (System.getProperty(LEAK_DETECTION_LEVEL) == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    private static void quietSlf4j() {
        if (System.getProperty(SLF4J_PROVIDER) == null) {
            System.setProperty(SLF4J_PROVIDER, "org.slf4j.helpers.NOP_FallbackServiceProvider");
            System.setProperty("slf4j.internal.verbosity", "WARN");
        }
    }
}
