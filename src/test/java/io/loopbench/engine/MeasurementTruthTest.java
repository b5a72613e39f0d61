package io.loopbench.engine;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.loop.LoopLayout;
import io.loopbench.engine.server.ServerFault;
import io.loopbench.engine.spec.AddressFamily;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.spec.WindowMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.atomic.AtomicLong;

import static io.loopbench.engine.EngineTestSupport.brief;
import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

/** Tests that prove the figures right: known delays, the window kept full, the stamp gap, counted losses, pinned shards. */
class MeasurementTruthTest {

    /**
     * With one timestamp rule for every execution — sent just before the message is handed over, received as its
     * read batch's handling begins (a datagram: as it is handled), the refill stamped with that instant — round
     * trips/s × mean RTT is the window, within 5 %.
     */
    @ParameterizedTest
    @CsvSource({"netty,tcp", "netty,udp", "reactive,tcp", "reactive,udp", "virtual-threads,tcp",
            "virtual-threads,udp"})
    void windowFillHoldsOnTheLoopsAndAVirtualThreadsEmptySlotIsWarned(String execution, String protocol) {
        Execution e = Labeled.parse(Execution.class, execution);
        // virtual threads with one message in flight per client, as EngineTestSupport.quick(Execution) explains: with
        // 16, ends that always find data to read never park and starve the others (fresh-clone runs saw a client
        // complete 16 echoes beside a mean of 104,665, and rate × mean RTT miss the window by 87 %)
        RunSpec spec = RunSpec.builder().protocol(Labeled.parse(Protocol.class, protocol)).clients(16)
                .window(e == Execution.VIRTUAL_THREADS ? 1 : 16)
                .warmupSeconds(0.3).warmupMode(WarmupMode.FIXED).seconds(1.0).repetitions(1).execution(e)
                .ioThreads(e == Execution.VIRTUAL_THREADS ? EngineTestSupport.CARRIERS : 1).lossTimeoutMillis(5000)
                .build();

        RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

        // a hiccup of a busy machine may make the repetition unfair; the window holding is this test's subject
        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        double inFlight = spec.clients() * spec.window();
        double predicted = inFlight / (r.rtt().latency().meanUs() / 1e6);
        assertThat(r.checks().windowFill().expectedInFlight()).isEqualTo(inFlight);
        assertThat(r.checks().windowFill().ratio()).isCloseTo(r.throughput().roundTripsPerSecond() / predicted,
                withPercentage(0.001));
        // never more in flight than the window holds: a clock that stretched RTTs would show here, busy or not
        assertThat(r.checks().windowFill().ratio()).isLessThanOrEqualTo(1 + WindowFill.TOLERANCE);
        if (e == Execution.VIRTUAL_THREADS) {
            // a blocking client reads an echo, then parks until a carrier is free to send its refill: on a busy
            // machine its slot stands empty meanwhile (a fresh-clone run with one core busy saw 0.75), which the
            // repetition says itself, as a warning
            assertThat(r.checks().windowFill().holds())
                    .isEqualTo(r.checks().windowFill().ratio() >= 1 - WindowFill.TOLERANCE);
            assertThat(r.checks().warnings().contains(r.checks().windowFill().warning()))
                    .isEqualTo(!r.checks().windowFill().holds());
        } else {
            // the refill is sent on the loop thread at the instant the echo was matched: the window stays full
            assertThat(r.throughput().roundTripsPerSecond()).isCloseTo(predicted, withPercentage(5));
            assertThat(r.checks().windowFill().holds()).isTrue();
        }
        assertThat(r.checks().fairness().clients()).isEqualTo(16);
        assertThat(r.checks().fairness().minMessages() + 0L).isPositive();
        // every message sent had its stamp gap measured, and a gap is a part of its message's RTT
        assertThat(r.checks().stampGap().messages()).isEqualTo(r.throughput().messagesSent());
        assertThat(r.checks().stampGap().p50Us()).isLessThanOrEqualTo(r.rtt().latency().p50Us());
        assertThat(r.checks().warnings().contains(r.checks().stampGap().warning()))
                .isEqualTo(!r.checks().stampGap().holds());
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void anInjectedFiveMillisecondServerDelayShowsInTheMedian(Protocol protocol) {
        ServerFault delay = EngineTestSupport.delayEveryEcho(5_000_000);
        RunSpec spec = brief(quick()).protocol(protocol).clients(2).window(2).build();

        RepetitionResult r = EngineTestSupport.measure(spec).serverFault(delay).run().repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        assertThat(r.rtt().latency().p50Us()).isGreaterThanOrEqualTo(5000);
        // applied once per echo: the quickest echo waited the delay plus the ends' own time, under the delay again
        // (a busy machine can hold the median past twice the delay, but not every echo of the phase; a cold gRPC
        // path adds over a millisecond to each round trip of so short a phase, hence a delay this long)
        double quickestUs = LatencyHistograms.decode(r.rtt().latencyHistogram()).getMinValue() / 1000.0;
        assertThat(quickestUs).isLessThan(2 * 5000);
        // closed loop: every round trip waits at least 5 ms, so throughput is bounded by window / 5 ms per client
        assertThat(r.throughput().roundTripsPerSecond()).isLessThanOrEqualTo(2 * 2 / 0.005);
    }

    @Test
    void udpLossIsCountedAndDoesNotStallTheRun() {
        AtomicLong seen = new AtomicLong();
        ServerFault dropEveryTenth = new ServerFault() {
            @Override
            public boolean drop() {
                return seen.incrementAndGet() % 10 == 0;
            }
        };
        RunSpec spec = quick().protocol(Protocol.UDP).clients(2).window(4).warmupSeconds(0.0).seconds(1.0)
                .lossTimeoutMillis(20).build();

        MeasurementResult result = EngineTestSupport.measure(spec).serverFault(dropEveryTenth).run();

        RepetitionResult r = result.repetitions().getFirst();
        assertThat(result.ok()).isFalse();
        assertThat(result.summary()).isNull();
        assertThat(r.ok()).isFalse();
        assertThat(r.error()).contains("lostMessages=");
        // every message sent was either echoed and validated or counted lost: nothing vanished
        assertThat(r.throughput().messages() + r.checks().errors().lostMessages())
                .isEqualTo(r.throughput().messagesSent());
        // at most 8 in flight per 20 ms timeout: the run kept going well beyond the first losses
        assertThat(r.throughput().messages()).isGreaterThan(100);
        // every dropped datagram is counted lost; on a busy machine an echo slower than the timeout is counted
        // lost too, and then, when it does arrive, unexpected: those are the only other errors
        long dropped = seen.get() / 10;
        assertThat(r.checks().errors().lostMessages()).isGreaterThanOrEqualTo(dropped);
        assertThat(r.checks().errors().unexpectedMessages())
                .isLessThanOrEqualTo(r.checks().errors().lostMessages() - dropped);
        assertThat(r.checks().errors().total())
                .isEqualTo(r.checks().errors().lostMessages() + r.checks().errors().unexpectedMessages());
        assertThat((double) dropped / r.throughput().messagesSent()).isBetween(0.09, 0.11);
    }

    @Test
    void anOpenLoopRunShowsAServerStallInTheCorrectedP99AndNotInTheUncorrectedOne() {
        AtomicLong echoes = new AtomicLong();
        ServerFault stallOnce = new ServerFault() {
            @Override
            public long stallNanos() {
                return echoes.incrementAndGet() == 2000 ? 200_000_000 : 0;
            }
        };
        // one loop thread: the stall also stops the client, which is what coordinated omission is about
        RunSpec spec = RunSpec.builder().clients(1).window(1024).payloadBytes(64).ioThreads(1)
                .load(LoadModel.OPEN).rate(5000.0).warmupSeconds(0.0).seconds(2.0).repetitions(1).build();

        RepetitionResult r = EngineTestSupport.measure(spec).serverFault(stallOnce).run().repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        assertThat(r.openLoad().intendedMessages()).isBetween(9000L, 10_001L);
        assertThat(r.openLoad().droppedMessages()).isZero();
        // about 1000 of the 10,000 messages were due during the 200 ms stall and waited for it: over 1 %, the first
        // half of them over half the stall
        assertThat(r.rtt().latency().p99Us()).isGreaterThan(100_000);
        assertThat(r.rtt().latency().maxUs()).isGreaterThanOrEqualTo(190_000);
        // measured from when they were actually sent, they were quick: the stall vanishes below the 99th percentile.
        // A message's uncorrected RTT is never above its corrected one, and a stall of the busy machine itself raises
        // the corrected figures at least as much as the uncorrected: the bound comes from this run, not a clock
        assertThat(r.rtt().uncorrectedLatency().p99Us()).isLessThan(r.rtt().latency().p99Us() / 2);
        assertThat(r.rtt().uncorrectedLatency().observations()).isEqualTo(r.rtt().latency().observations());
        // and a closed loop run hides it the same way: the client does not send while it waits
        assertThat(r.throughput().messages()).isEqualTo(r.rtt().latency().observations());
    }

    @Test
    void openLoadNeedsARateAndASlidingWindow() {
        assertThat(RunSpec.builder().load(LoadModel.OPEN).build().violations()).extracting(Violation::field)
                .containsExactly("rate");
        assertThat(RunSpec.builder().load(LoadModel.OPEN).rate(10.0).windowMode(WindowMode.BATCH).build()
                .violations()).extracting(Violation::field).containsExactly("windowMode");
        assertThat(RunSpec.builder().rate(10.0).build().violations()).extracting(Violation::field)
                .containsExactly("rate");
    }

    @Test
    void anOpenLoopRateBeyondWhatTheWindowAllowsIsCountedLateOrDropped() {
        // window 1 and a 200 µs echo delay: at most ~5,000/s per client can complete, and 10,000/s are asked for
        ServerFault slow = EngineTestSupport.delayEveryEcho(200_000);
        // with a warm-up, so that the pacer, far behind its schedule at the phase's end, must not send into the drain
        RunSpec spec = RunSpec.builder().clients(2).window(1).payloadBytes(64).ioThreads(1)
                .load(LoadModel.OPEN).rate(20_000.0).warmupSeconds(0.5).warmupMode(WarmupMode.FIXED).seconds(1.0)
                .repetitions(1).build();

        RepetitionResult r = EngineTestSupport.measure(spec).serverFault(slow).run().repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        OpenLoad o = r.openLoad();
        assertThat(o.droppedMessages()).isPositive();
        // every intended message was sent (on time or late) or dropped: none skipped silently
        assertThat(r.throughput().messagesSent() + o.droppedMessages()).isEqualTo(o.intendedMessages());
        assertThat(r.throughput().roundTripsPerSecond()).isLessThan(12_000);
        assertThat(r.checks().warmup().errors().total()).isZero();
        // overloaded, and the repetition says so
        assertThat(o.overloaded()).isTrue();
        assertThat(r.checks().warnings()).anySatisfy(w -> assertThat(w).startsWith("overloaded: " + String.format(
                java.util.Locale.ROOT, "%,d of %,d intended messages", o.droppedMessages(), o.intendedMessages())));
        // every intended message counts in the corrected latency: the delivered ones measured, the dropped ones
        // censored at the phase's end, above the delivered share, which the result names
        assertThat(r.rtt().latency().observations()).isEqualTo(r.throughput().messages() + o.droppedMessages());
        assertThat(o.lowerBoundsAbovePercentile())
                .isCloseTo(100.0 * r.throughput().messages() / (r.throughput().messages() + o.droppedMessages()),
                        within(1e-9));
        // the backlog (a tenth of a second of the rate) is full within 0.2 s at the 5,000/s a client can complete,
        // so the first drop is due before then: censored at the phase's end, after 1 s, it lasted over 0.8 s
        assertThat(r.rtt().latency().maxUs()).isGreaterThan(500_000);
        assertThat(r.rtt().uncorrectedLatency().observations()).isEqualTo(r.throughput().messages());
    }

    @Test
    void anOpenLoopRateTheSystemCarriesIsNotOverloaded() {
        RunSpec spec = brief(quick()).clients(2).window(16).load(LoadModel.OPEN).rate(2_000.0).build();

        RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        // 2,000/s on two connections of window 16 is far below what loopback carries, even on a busy machine: the
        // only thing that could drop is a window of 32 and a backlog of 100 ms all full, a stall of over 100 ms
        assertThat(r.openLoad().droppedMessages()).isZero();
        assertThat(r.openLoad().lowerBoundsAbovePercentile()).isNull();
        assertThat(r.openLoad().overloaded()).isFalse();
        assertThat(r.rtt().latency().observations()).isEqualTo(r.throughput().messages());
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void shardedRunsPinEachClientAndItsServerPeerToOneThread(Protocol protocol) {
        RunSpec spec = brief(quick()).protocol(protocol).ioModel(IoModel.SHARDED).ioThreads(3).clients(7).build();

        RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        assertThat(r.setup().eventLoops()).isEqualTo(3);
        assertThat(r.setup().connectionsOnOneThread()).isEqualTo(7);
    }

    @Test
    void shardedLayoutAssignsClientIToShardIModN() {
        try (LoopLayout layout = new LoopLayout(IoModel.SHARDED, 3, Transport.NIO)) {
            assertThat(layout.shards()).isEqualTo(3);
            assertThat(layout.loops()).hasSize(3);
            for (int i = 0; i < 7; i++) {
                assertThat(layout.groupForClient(i)).isSameAs(layout.group(i % 3));
            }
        }
        try (LoopLayout layout = new LoopLayout(IoModel.SHARED, 3, Transport.NIO)) {
            assertThat(layout.shards()).isEqualTo(1);
            assertThat(layout.loops()).hasSize(3);
        }
    }

    @Test
    void ipv6LoopbackWorks() {
        RepetitionResult r = EngineTestSupport.measure(quick().addressFamily(AddressFamily.IPV6).build())
                .run().repetitions().getFirst();
        EngineTestSupport.assertValidatedByEveryClient(r, quick().build().clients());
    }

    @Test
    void summaryIsMedianMinMaxOfRepetitionsAndLatencyIsNeverPooled() {
        MeasurementResult result = EngineTestSupport.measure(quick().repetitions(3).build()).run();

        assertThat(result.ok()).as(result.error()).isTrue();
        assertThat(result.repetitions()).hasSize(3);
        Summary s = result.summary();
        assertThat(s.repetitions()).isEqualTo(3);
        assertThat(s.roundTripsPerSecond()).isEqualTo(
                Stat.of(result.repetitions().stream().map(rep -> rep.throughput().roundTripsPerSecond()).toList()));
        assertThat(s.latency().p99Us()).isEqualTo(
                Stat.of(result.repetitions().stream().map(r -> r.rtt().latency().p99Us()).toList()));
        assertThat(result.repetitions()).extracting(RepetitionResult::repetition).containsExactly(1, 2, 3);
    }

    @Test
    void invalidSpecIsRejectedBeforeAnythingRuns() {
        long before = EngineTestSupport.loopThreads();
        assertThatThrownBy(() -> Measurement.of(RunSpec.builder().clients(0).window(2000).build()))
                .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.violations())
                        .extracting(Violation::field).containsExactly("clients", "window"));
        assertThat(EngineTestSupport.loopThreads()).isEqualTo(before);
    }
}
