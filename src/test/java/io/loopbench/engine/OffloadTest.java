package io.loopbench.engine;

import io.loopbench.engine.offload.OffloadUse;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.loopbench.engine.EngineTestSupport.loopThreads;
import static io.loopbench.engine.EngineTestSupport.openSockets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Blocking work per message, on the loop or offloaded, held to Little's law: with 16 clients at window 1, 16 messages
 * are always in flight, so throughput × mean RTT is 16 however fast the machine is. A 1 ms blocking call on one loop
 * thread allows at most 1,000 echoes/s (the bound a slow machine cannot break: it can only be slower), and then each
 * echo waits for the 15 others, p50 near 16 ms; offloaded, the calls overlap. No bound here is one a busy scheduler
 * can break: a sleep never ends early, and the overlap is read from the server's own count of calls in work.
 */
class OffloadTest {

    private static final int CLIENTS = 16;

    private static RunSpec.Builder blocking1ms() {
        return RunSpec.builder().clients(CLIENTS).window(1).ioThreads(1).payloadBytes(64).blockingMicros(1000)
                .warmupSeconds(0.2).warmupMode(WarmupMode.FIXED).seconds(1.0).repetitions(1);
    }

    private static RepetitionResult run(RunSpec spec) {
        RepetitionResult r = EngineTestSupport.measure(spec.validated()).run().repetitions().getFirst();
        assertThat(r.checks().errors().total()).as(r.error()).isZero();
        assertThat(r.throughput().messages()).isPositive();
        return r;
    }

    /** Throughput × mean RTT: the messages in flight, by Little's law. */
    private static double inFlight(RepetitionResult r) {
        return r.throughput().roundTripsPerSecond() * r.rtt().latency().meanUs() / 1e6;
    }

    /**
     * Little's law on the work itself: every echo spent at least its 1 ms call in work, so the calls in work on average
     * are at least the echoes per second × 1 ms (less 5 % for the echoes of the phase's drain, counted in its length).
     */
    private static double workLowerBound(RepetitionResult r) {
        return 0.95 * r.throughput().roundTripsPerSecond() * 1e-3;
    }

    @Test
    void oneLoopThreadRunsOneBlockingCallAtATime() {
        RepetitionResult r = run(blocking1ms().build());

        // 1 ms per call, one call at a time: at most 1,000/s (+2 %: the phase's clock edges)
        assertThat(r.throughput().roundTripsPerSecond()).isLessThanOrEqualTo(1020);
        assertThat(inFlight(r)).isCloseTo(CLIENTS, within(CLIENTS * 0.2));
        // each echo waits for the calls of the clients before it: well above one call's 1 ms
        assertThat(r.rtt().latency().p50Us()).isGreaterThan(8_000);
        OffloadUse use = r.resources().offloadUse();
        assertThat(use.busyPeak()).isEqualTo(1);
        assertThat(use.busyMean()).isLessThanOrEqualTo(1.0 + 1e-3).isGreaterThanOrEqualTo(workLowerBound(r));
        assertThat(use.workThreads()).isEqualTo(1);
        assertThat(use.queuePeak()).isZero();
        assertThat(use.queueMean()).isZero();
    }

    @ParameterizedTest(name = "{0} execution, {1} offload")
    @CsvSource({"netty, executor", "netty, virtual-threads", "reactive, executor", "reactive, virtual-threads"})
    void anOffloadRunsTheCallsInParallelInOrderPerConnection(String execution, String offload) {
        RunSpec spec = blocking1ms().execution(Execution.valueOf(execution.toUpperCase()))
                .offload(io.loopbench.engine.spec.Labeled.parse(Offload.class, offload)).offloadThreads(CLIENTS)
                .build();

        RepetitionResult r = run(spec);

        assertThat(inFlight(r)).isCloseTo(CLIENTS, within(CLIENTS * 0.2));
        assertThat(r.rtt().latency().p50Us()).as("no call ends before its 1 ms").isGreaterThanOrEqualTo(1000);
        OffloadUse use = r.resources().offloadUse();
        // calls overlapped (one at a time would cap throughput at the loop's 1,000/s) and never beyond the clients
        assertThat(use.busyPeak()).isBetween(2, CLIENTS);
        assertThat(use.busyMean()).isGreaterThanOrEqualTo(workLowerBound(r)).isLessThanOrEqualTo(CLIENTS);
        assertThat(use.queueMean()).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(use.queuePeak());
        if (spec.offload() == Offload.EXECUTOR) {
            assertThat(use.workThreads()).isBetween(2, CLIENTS);
        } else if (spec.execution() == Execution.NETTY) {
            assertThat(use.workThreads()).as("only virtual threads ran the calls").isZero();
        }
    }

    @ParameterizedTest(name = "{0} on {2}, {1} offload")
    @CsvSource({"tcp, virtual-threads, netty", "udp, virtual-threads, netty", "websocket, virtual-threads, netty",
            "http, virtual-threads, netty", "tcps, executor, netty", "http, executor, netty", "udp, executor, netty",
            "udp, executor, reactive", "websocket, virtual-threads, reactive", "http, executor, reactive",
            "tcps, virtual-threads, reactive"})
    void everyProtocolEchoesValidatedAndInOrderWhenOffloaded(String protocol, String offload, String execution) {
        // a window of 4 per connection: virtual threads finish its calls out of order, the replies must not be
        Protocol p = Protocol.valueOf(protocol.toUpperCase());
        Execution e = Execution.valueOf(execution.toUpperCase());
        RunSpec spec = EngineTestSupport.quick(e).protocol(p).window(p.pipelinesOn(e) ? 4 : 1)
                .offload(io.loopbench.engine.spec.Labeled.parse(Offload.class, offload)).offloadThreads(4)
                .blockingMicros(200).work(1000).build();

        RepetitionResult r = EngineTestSupport.assertValidatedByEveryClient(
                EngineTestSupport.measure(spec.validated()).run().repetitions().getFirst(), spec.clients());

        assertThat(r.checks().errors().orderErrors()).isZero();
        assertThat(r.resources().offloadUse().busyPeak()).isPositive();
    }

    @Test
    @Timeout(60)
    void aRunOfLongBlockingCallsEndsWithoutWaitingForThemAndLeavesNoThread() throws Exception {
        EngineTestSupport.measure(EngineTestSupport.quick().build()).run(); // opens what the JVM keeps for good
        long sockets = openSockets();
        for (Offload offload : Offload.values()) {
            // 1 s per call, 16 queued on the loop: waiting for them all would take 16 s per repetition
            RunSpec spec = EngineTestSupport.quick().blockingMicros(1_000_000).offload(offload).offloadThreads(2)
                    .protocol(offload == Offload.GRPC_DEFAULT ? Protocol.GRPC : Protocol.TCP)
                    .warmupSeconds(0.0).seconds(0.3).build();

            RepetitionResult r = EngineTestSupport.measure(spec.validated()).run().repetitions().getFirst();

            // calls longer than the phase: it fails, saying so (stalled, or echoes unfinished at the drain's end)
            assertThat(r.ok()).isFalse();
            assertThat(r.error()).isNotBlank();
            assertThat(loopThreads()).as("threads after %s", offload).isZero();
            assertThat(openSockets()).isEqualTo(sockets);
        }
    }

    @Test
    void compilationsAreImmaterialOnlyWhereTheBlockingCallDwarfsTheCpuPerRoundTrip() {
        // 1,000 round trips at 100 µs of CPU each against a 1 ms call: a tenth, immaterial
        assertThat(JvmStage.immaterial(1000, 100_000_000L, 1000)).contains("100.0 µs").contains("1,000 µs");
        // a microsecond more, or no blocking call, or no echo: the warning stands
        assertThat(JvmStage.immaterial(1000, 101_000_000L, 1000)).isNull();
        assertThat(JvmStage.immaterial(0, 1_000L, 1000)).isNull();
        assertThat(JvmStage.immaterial(1000, 1_000L, 0)).isNull();
    }
}
