package io.loopbench.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Short specs and leak probes shared by the engine's tests. */
public final class EngineTestSupport {

    private EngineTestSupport() {
    }

    /**
     * A short single-repetition spec: 0.2 s fixed warm-up, 0.3 s measured, 4 clients × window 4, 2 threads. Its UDP loss
     * timeout is long, so that a datagram slowed by a cold JVM on a busy machine is not taken for a lost one.
     */
    static RunSpec.Builder quick() {
        return RunSpec.builder().clients(4).window(4).ioThreads(CARRIERS).payloadBytes(256)
                .warmupSeconds(0.2).warmupMode(WarmupMode.FIXED).seconds(0.3).repetitions(1).lossTimeoutMillis(5000);
    }

    /** The virtual-thread carriers the test JVM has (surefire's argLine): virtual-threads runs use as many. */
    static final int CARRIERS = 2;

    /**
     * Live event-loop threads of repetitions ({@code loopbench-<transport>-…}, not the service's own threads) and
     * live virtual threads they started.
     */
    public static long loopThreads() {
        return VirtualThreads.live() + Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && java.util.Arrays.stream(Transport.values())
                        .anyMatch(tr -> t.getName().startsWith(LoopLayout.THREAD_PREFIX + tr.label() + "-")))
                .count();
    }

    /** Sockets this process has open (all descriptors would count the jar files class loading opens). */
    public static long openSockets() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                } catch (IOException e) {
                    return false; // closed meanwhile
                }
            }).count();
        }
    }
}
