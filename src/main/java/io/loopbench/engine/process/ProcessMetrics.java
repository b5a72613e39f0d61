package io.loopbench.engine.process;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** Process-wide CPU, memory and GC readings. Stateless and thread-safe. */
public final class ProcessMetrics {

    private static final Path STATUS = Path.of("/proc/self/status");

    private ProcessMetrics() {
    }

    /** Process CPU time (user + system, every thread) in nanoseconds; clock-tick granularity on Linux. */
    public static long cpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    public static MemoryUsage memory() {
        try {
            Long rss = null;
            Long hwm = null;
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmRSS:")) {
                    rss = kib(line);
                } else if (line.startsWith("VmHWM:")) {
                    hwm = kib(line);
                }
            }
            return new MemoryUsage(rss, hwm);
        } catch (IOException | RuntimeException e) {
            return new MemoryUsage(null, null);
        }
    }

    /** Collections and collection milliseconds so far, summed over every collector. */
    public static long[] gc() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new long[] {count, millis};
    }

    private static long kib(String line) {
        String[] parts = line.trim().split("\\s+");
        return Long.parseLong(parts[1]) * 1024;
    }
}
