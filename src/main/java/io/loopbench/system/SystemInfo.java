package io.loopbench.system;

import io.loopbench.engine.process.Environment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a result depends on: the machine, OS, JVM and network stack. Returned by {@code GET /api/system} and stored
 * in every run, so that a figure can always be traced to where it was measured.
 *
 * @param cpuModel         the CPU's model name from /proc/cpuinfo
 * @param logicalCpus      processors the JVM sees
 * @param memoryBytes      MemTotal from /proc/meminfo, or null where absent
 * @param kernel           kernel release
 * @param os               OS name and architecture
 * @param clockSource      the kernel's current clocksource (what System.nanoTime reads), or null where unknown
 * @param javaVendor       the service JVM's vendor
 * @param javaVersion      the service JVM's version
 * @param jvmArguments     the service JVM's flags (a forked worker's are in the run's workerEnvironment)
 * @param garbageCollectors the service JVM's collectors
 * @param nettyVersion     Netty's version
 * @param reactorNettyVersion Reactor Netty's version
 * @param allocator        the default ByteBuf allocator's class
 * @param nativeTransports nio, epoll and io_uring: null when it loads, otherwise why not
 */
public record SystemInfo(
        String cpuModel,
        int logicalCpus,
        Long memoryBytes,
        String os,
        String kernel,
        String clockSource,
        String javaVendor,
        String javaVersion,
        List<String> jvmArguments,
        List<String> garbageCollectors,
        String nettyVersion,
        String reactorNettyVersion,
        String allocator,
        Map<String, String> nativeTransports) {

    public static SystemInfo current() {
        Environment env = Environment.current();
        return new SystemInfo(readCpuModel(), env.logicalCpus(), readMemTotal(),
                System.getProperty("os.name") + " " + System.getProperty("os.arch"), System.getProperty("os.version"),
                firstLine(Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource")),
                env.javaVendor(), env.javaVersion(), env.jvmArguments(), env.garbageCollectors(),
                env.nettyVersion(), env.reactorNettyVersion(), env.allocator(), env.transports());
    }

    /** The CPU's model name from /proc/cpuinfo, or the architecture where there is none. */
    public static String readCpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse(System.getProperty("os.arch"));
        } catch (IOException e) {
            return System.getProperty("os.arch");
        }
    }

    /** MemTotal from /proc/meminfo in bytes, or null where absent. */
    public static Long readMemTotal() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream()
                    .filter(l -> l.startsWith("MemTotal:"))
                    .map(l -> Long.parseLong(l.replaceAll("\\D", "")) * 1024)
                    .findFirst().orElse(null);
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    private static String firstLine(Path p) {
        try {
            List<String> lines = Files.readAllLines(p);
            return lines.isEmpty() ? null : lines.getFirst().trim();
        } catch (IOException e) {
            return null;
        }
    }
}
