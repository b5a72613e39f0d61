package io.loopbench.engine.process;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * How long this JVM took to start measuring, in milliseconds after its process started (as the OS records it: the
 * fork, at the kernel's 10 ms clock-tick resolution). It describes start-up only in a fresh process (a forked worker,
 * {@code ./loopbench}); in the service, whose JVM has run for a while, the first echo is that of its first in-process
 * run.
 *
 * @param jvmStartMillis  when the JVM began to initialise ({@code RuntimeMXBean.getStartTime()}): the launcher's share
 * @param firstEchoMillis when the first validated echo of any client came back; null before one has
 */
public record Startup(Long jvmStartMillis, Long firstEchoMillis) {

    /** Wall-clock ms of the first validated echo in this JVM; 0 before one. */
    private static volatile long firstEchoAt;

    /**
     * Notes an echo that came back now; only the first in this JVM counts. Called for every validated echo: after the
     * first it costs one load and a branch never taken.
     */
    public static void echoed() {
        if (firstEchoAt == 0) {
            synchronized (Startup.class) {
                if (firstEchoAt == 0) {
                    firstEchoAt = System.currentTimeMillis();
                }
            }
        }
    }

    /** This JVM's; fields are null where the OS does not tell when the process started. */
    public static Startup current() {
        Long processStart = ProcessStart.MILLIS;
        if (processStart == null) {
            return new Startup(null, null);
        }
        long echo = firstEchoAt;
        return new Startup(ManagementFactory.getRuntimeMXBean().getStartTime() - processStart,
                echo == 0 ? null : echo - processStart);
    }

    /** Read once: each reading rounds the uptime afresh, so that two could differ by a millisecond. */
    private static final class ProcessStart {
        static final Long MILLIS = processStartMillis();
    }

    /**
     * Wall-clock ms when this process started: now less its age, which Linux gives in clock ticks (USER_HZ, 100 a
     * second) since boot in /proc/self/stat against /proc/uptime. Not ProcessHandle's start instant: it adds the
     * boot time from /proc/stat, whole seconds, so it is off by up to a second.
     */
    static Long processStartMillis() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // the fields after the command name, which may itself hold spaces and parentheses; starttime is the 22nd
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long startTicks = Long.parseLong(fields[22 - 3]);
            double uptimeSeconds = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
            return System.currentTimeMillis() - Math.round(uptimeSeconds * 1000 - startTicks * 10.0);
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(null);
        }
    }
}
