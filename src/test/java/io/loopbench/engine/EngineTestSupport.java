package io.loopbench.engine;

import io.loopbench.engine.loop.LoopLayout;
import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.offload.OffloadPool;
import io.loopbench.engine.server.ServerFault;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.WarmupMode;

import java.io.IOException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Short specs and leak probes shared by the engine's tests. */
public final class EngineTestSupport {

    private EngineTestSupport() {
    }

    /**
     * A short single-repetition spec: 0.2 s fixed warm-up, 0.6 s measured (a hiccup of the busy test machine must stay
     * under a quarter of it, lest the repetition fail as unfair), 4 clients × window 4, one loop thread. One
     * thread, because with a shared group of two on a busy 2-core machine the clients whose server end shares their
     * loop can complete ten times more than the others, and the repetition then fails, rightly, as unfair. Its UDP
     * loss timeout is long, so that a datagram slowed by a cold JVM on a busy machine is not taken for a lost one.
     */
    static RunSpec.Builder quick() {
        return RunSpec.builder().clients(4).window(4).ioThreads(1).payloadBytes(256)
                .warmupSeconds(0.2).warmupMode(WarmupMode.FIXED).seconds(0.6).repetitions(1).lossTimeoutMillis(5000);
    }

    /**
     * {@link #quick()} in an execution. Virtual threads run on the test JVM's {@link #CARRIERS} carriers with one
     * message in flight per client, so that every end parks for each echo: with more in flight, ends that always find
     * data to read never park and, virtual threads being scheduled without preemption, starve the others — which
     * loopbench reports, rightly, as an unfair repetition, and which these tests are not about.
     */
    static RunSpec.Builder quick(Execution execution) {
        return execution == Execution.VIRTUAL_THREADS
                ? quick().execution(execution).ioThreads(CARRIERS).window(1)
                : quick().execution(execution);
    }

    /**
     * A measurement of the spec that does not watch the flight recorder's JIT and GC events, so that each repetition
     * ends without waiting up to a second for their flush: for every test that is not about the JIT or the collector.
     */
    public static Measurement measure(RunSpec spec) {
        return Measurement.of(spec).withoutJvmEvents();
    }

    /** A server that holds every echo this long, scheduled on its loop (not slept: the loop goes on meanwhile). */
    static ServerFault delayEveryEcho(long nanos) {
        return new ServerFault() {
            @Override
            public long delayNanos() {
                return nanos;
            }
        };
    }

    /**
     * The repetition passed, or failed only as unfair or stalled — which client got how much of a short phase on a
     * busy 2-core machine, and whether a hiccup held one echo for a quarter of it, is not what most tests are about
     * (SelfChecksTest is) — and either way every echo validated and every one of its {@code clients} completed echoes: a client that
     * never sent, or whose echoes all failed, fails the test.
     */
    public static RepetitionResult assertValidatedByEveryClient(RepetitionResult r, int clients) {
        assertThat(r.ok() || r.failure().unfair()).as(r.error()).isTrue();
        assertThat(r.checks().errors().total()).as("errors: %s", r.error()).isZero();
        assertThat(r.throughput().messages()).isPositive().isEqualTo(r.throughput().messagesSent());
        assertThat(r.checks().fairness().clients()).isEqualTo(clients);
        assertThat(r.checks().fairness().minMessages()).as("echoes of the client that completed fewest").isPositive();
        return r;
    }

    /**
     * A spec's phases shortened to 0.1 s of warm-up (one whole round: begin, run, stop, drain) and 0.3 s measured:
     * still dozens (reactive http, one request at a time, on a busy machine) to thousands of echoes each, every one
     * validated, and every message in flight at a phase's end drained and counted.
     */
    public static RunSpec.Builder brief(RunSpec.Builder spec) {
        return spec.warmupSeconds(0.1).seconds(0.3);
    }

    /** The first repetition of {@code spec}, measured without the flight recorder, validated by every client. */
    public static RepetitionResult validated(RunSpec spec) {
        return assertValidatedByEveryClient(measure(spec).run().repetitions().getFirst(), spec.clients());
    }

    /** The virtual-thread carriers the test JVM has (surefire's argLine): virtual-threads runs use as many. */
    static final int CARRIERS = 2;

    /**
     * Live event-loop threads of repetitions ({@code loopbench-<transport>-…}, not the service's own threads), live
     * virtual threads they started, and Reactor Netty's global loops ({@code reactor-http-…}, {@code reactor-tcp-…}),
     * which no repetition may start, and the platform threads of offload pools.
     */
    public static long loopThreads() {
        return VirtualThreads.live() + Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && (t.getName().startsWith("reactor-")
                        || t.getName().startsWith(OffloadPool.THREAD_PREFIX)
                        || java.util.Arrays.stream(Transport.values())
                        .anyMatch(tr -> t.getName().startsWith(LoopLayout.THREAD_PREFIX + tr.label() + "-"))))
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
