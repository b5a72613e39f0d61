package io.loopbench.engine.process;

import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.protocol.tls.Tls;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.Version;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a result depends on, recorded with it: JVM, its flags and collectors, CPUs, OS, Netty and Reactor Netty
 * versions, the ByteBuf allocator and which native transports load here (and why not).
 *
 * @param javaVersion       the JVM's java.version
 * @param javaVendor        the JVM's vendor
 * @param javaHome          where the JVM is installed
 * @param jvmArguments      the JVM's flags (heap, GC, …)
 * @param classSharing      how its classes came in at start: from an AOT cache, a CDS archive or neither (see
 *                          {@link ClassSharing}); null in results recorded before it was
 * @param startup           how long the JVM took to its first echo (see {@link Startup}); null in results recorded
 *                          before it was
 * @param garbageCollectors the collectors' names
 * @param logicalCpus       processors the JVM sees
 * @param maxHeapBytes      the heap's maximum size, bytes
 * @param os                OS name, version and architecture
 * @param nettyVersion      Netty's version
 * @param reactorNettyVersion Reactor Netty's version
 * @param allocator         the default ByteBuf allocator's class
 * @param leakDetection     Netty's buffer leak detection level ({@code disabled} in a measuring JVM unless asked for);
 *                          null in results recorded before it was
 * @param transports        for nio, epoll and io_uring: {@code null} when it loads, otherwise why not
 * @param tlsProviders      for jdk and openssl: {@code null} when it loads, otherwise why not, so that a TLS run's
 *                          {@code auto} provider says why it is what it is; null in results recorded before it was
 */
public record Environment(
        String javaVersion,
        String javaVendor,
        String javaHome,
        List<String> jvmArguments,
        ClassSharing classSharing,
        Startup startup,
        List<String> garbageCollectors,
        int logicalCpus,
        long maxHeapBytes,
        String os,
        String nettyVersion,
        String reactorNettyVersion,
        String allocator,
        String leakDetection,
        Map<String, String> transports,
        Map<String, String> tlsProviders) {

    public static Environment current() {
        List<String> jvmArguments = ManagementFactory.getRuntimeMXBean().getInputArguments();
        Version netty = Version.identify().get("netty-common");
        Package reactorNetty = reactor.netty.ReactorNetty.class.getPackage();
        return new Environment(
                System.getProperty("java.version"),
                System.getProperty("java.vendor"),
                System.getProperty("java.home"),
                jvmArguments,
                ClassSharing.of(jvmArguments),
                Startup.current(),
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList(),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                netty == null ? null : netty.artifactVersion(),
                reactorNetty == null ? null : reactorNetty.getImplementationVersion(),
                ByteBufAllocator.DEFAULT.getClass().getSimpleName(),
                ResourceLeakDetector.getLevel().name().toLowerCase(Locale.ROOT),
                Transports.availability(),
                Tls.availability());
    }
}
