package io.loopbench.engine;

import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static io.loopbench.engine.EngineTestSupport.loopThreads;
import static io.loopbench.engine.EngineTestSupport.openSockets;
import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/** Nothing a repetition creates outlives it: threads, sockets (file descriptors) and direct memory. */
class ResourceReleaseTest {

    @Test
    void consecutiveRepetitionsOfEveryProtocolAndExecutionLeakNoThreadSocketOrDirectMemory() throws Exception {
        long socketsAfterFirst = -1;
        long directAfterFirst = -1;
        int repetitions = 3 * Protocol.values().length - 1;
        for (int i = 1; i <= repetitions; i++) {
            // every protocol with every execution: the protocol changes every third repetition, the execution every one
            Protocol protocol = Protocol.values()[(i / 3) % Protocol.values().length];
            Execution execution = Execution.values()[i % 3];
            IoModel model = i % 4 < 2 || execution == Execution.VIRTUAL_THREADS ? IoModel.SHARED : IoModel.SHARDED;
            RunSpec.Builder builder = quick(execution).protocol(protocol).ioModel(model);
            if (!protocol.pipelinesOn(execution)) {
                builder.window(1); // reactive http and https: one request at a time
            }
            RunSpec spec = (model == IoModel.SHARDED ? builder.ioThreads(2) : builder)
                    .warmupSeconds(0.0).seconds(0.1).build();
            // an execution the protocol refuses (WebSocket, HTTP, HTTP/2: virtual threads)
            if (!spec.violations().isEmpty()) {
                spec = spec.toBuilder().execution(Execution.NETTY).build();
            }

            RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

            // every echo validated (a 0.1 s phase is too short to judge fairness by: a 25 ms hiccup fails it)
            assertThat(r.checks().errors()).as(r.error()).isNotNull();
            assertThat(r.checks().errors().total()).as(r.error()).isZero();
            assertThat(loopThreads()).as("event-loop and carrier threads after repetition %d", i).isZero();
            // the first repetition may open what the JVM keeps for good (its netlink socket); none after may
            if (i == 1) {
                socketsAfterFirst = openSockets();
            }
            assertThat(openSockets()).as("open sockets after repetition %d", i).isEqualTo(socketsAfterFirst);
            if (i == 2) {
                directAfterFirst = usedDirectMemory();
            }
        }
        // Pools may keep chunks for reuse, but the repetitions after the second must not add to them.
        assertThat(usedDirectMemory()).isLessThanOrEqualTo(directAfterFirst + 4L * 1024 * 1024);
    }

    @ParameterizedTest
    @EnumSource(Execution.class)
    void cancellationStopsARunPromptlyKeepsFinishedRepetitionsAndReleasesEverything(Execution execution)
            throws Exception {
        EngineTestSupport.measure(quick(execution).build()).run(); // opens what the JVM keeps for good
        long socketsBefore = openSockets();
        RunControl control = new RunControl();
        RunSpec spec = quick(execution).repetitions(3).warmupSeconds(0.0).seconds(0.4)
                .profiling(io.loopbench.engine.spec.Profiling.CPU).build();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            // cancel in the middle of the second repetition's 0.4 s measured phase
            timer.schedule(control::cancel, 600, TimeUnit.MILLISECONDS);
            long started = System.nanoTime();

            MeasurementResult result = EngineTestSupport.measure(spec).control(control).run();

            double seconds = (System.nanoTime() - started) / 1e9;
            assertThat(result.cancelled()).isTrue();
            assertThat(result.ok()).isFalse();
            assertThat(result.summary()).isNull();
            // kept whole: passed, or judged unfair (a virtual thread starved on a busy 2-core machine), never cut off
            assertThat(result.repetitions()).hasSizeLessThan(3).allSatisfy(r ->
                    EngineTestSupport.assertValidatedByEveryClient(r, spec.clients()));
            assertThat(seconds).isLessThan(3.0);
            assertThat(loopThreads()).isZero();
            assertThat(openSockets()).isEqualTo(socketsBefore);
            // the cancelled phase's profile was dropped and the profiler released
            try (io.loopbench.engine.profile.CpuProfiler.Session next = io.loopbench.engine.profile.CpuProfiler.start(
                    io.loopbench.engine.profile.CpuProfiler.DEFAULT_INTERVAL_MICROS)) {
                assertThat(next.refused()).isNull();
            }
        } finally {
            timer.shutdownNow();
        }
    }

    private static long usedDirectMemory() {
        return ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric().usedDirectMemory();
    }
}
