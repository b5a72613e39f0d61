package io.loopbench.engine;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.process.JvmEvents;
import io.loopbench.engine.server.MidPhaseCompilingFault;
import io.loopbench.engine.server.ServerFault;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.RunSpec;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/** The checks a repetition makes of its own figures: fairness, JIT quiet, the pacer's lag, exact histograms. */
class SelfChecksTest {

    @Test
    void aStarvedClientFailsTheRepetitionAsUnfair() {
        // client 0's echoes are held 400 ms each: in a 1 s phase it completes a handful, the others thousands
        ServerFault starveClientZero = new ServerFault() {
            @Override
            public long delayNanos(int clientId) {
                return clientId == 0 ? 400_000_000 : 0;
            }
        };
        RunSpec spec = quick().clients(4).window(1).warmupSeconds(0.0).seconds(1.0).build();

        RepetitionResult r = EngineTestSupport.measure(spec).serverFault(starveClientZero).run().repetitions().getFirst();

        assertThat(r.checks().errors().total()).as("every echo validated").isZero();
        assertThat(r.ok()).isFalse();
        assertThat(r.error()).startsWith("unfair: client 0 completed");
        assertThat(r.failure()).isInstanceOfSatisfying(Failure.Unfair.class, u -> {
            assertThat(u.client()).isZero();
            assertThat(u.echoes()).isEqualTo(r.checks().fairness().minMessages());
            assertThat(u.unfair()).isTrue();
        });
        assertThat(r.checks().fairness().minMessages()).isLessThan(r.checks().fairness().maxMessages() / 10);
        assertThat(r.checks().fairness().jainIndex()).isLessThan(0.8);
    }

    @Test
    void aMessageWaitingOverAQuarterOfThePhaseFailsTheRepetition() {
        AtomicBoolean once = new AtomicBoolean();
        ServerFault holdOne = new ServerFault() {
            @Override
            public long delayNanos(int clientId) {
                return clientId == 1 && once.compareAndSet(false, true) ? 600_000_000 : 0;
            }
        };
        // window 1: the held echo reorders nothing
        RunSpec spec = quick().clients(2).window(1).warmupSeconds(0.0).seconds(1.2).build();

        RepetitionResult r = EngineTestSupport.measure(spec).serverFault(holdOne).run().repetitions().getFirst();

        assertThat(r.ok()).isFalse();
        // a stall, named apart from a starved client
        assertThat(r.error()).startsWith("stalled: one message took ");
        assertThat(r.failure()).isInstanceOfSatisfying(Failure.Stalled.class,
                st -> assertThat(st.maxUs()).isEqualTo(r.rtt().latency().maxUs()));
        assertThat(r.rtt().latency().maxUs()).isGreaterThan(spec.seconds() * 1e6 / 4);
    }

    /**
     * Under open load every client sends at its share of the rate, so their echoes stay even however one is served:
     * client 0's echoes held 20 ms each show in its own corrected p99, which the others' do not reach, and the
     * repetition warns of uneven clients by latency. The window (64) holds the 20 ms × 1,000/s in flight, so nothing
     * is dropped and no message waits for a slot.
     */
    @Test
    void underOpenLoadAClientServedSlowlyIsNamedByItsOwnP99ThoughItsEchoesAreEven() {
        long delay = 20_000_000;
        ServerFault slowClientZero = new ServerFault() {
            @Override
            public long delayNanos(int clientId) {
                return clientId == 0 ? delay : 0;
            }
        };
        RunSpec spec = quick().clients(2).window(64).load(LoadModel.OPEN).rate(2_000.0).warmupSeconds(0.3)
                .seconds(1.2).build();

        RepetitionResult r = EngineTestSupport.measure(spec).serverFault(slowClientZero).run().repetitions()
                .getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, 2);
        OpenLoad.ClientSpread spread = r.openLoad().clientSpread();
        assertThat(spread.clients()).isEqualTo(2);
        // 1,200 messages each were due (1,000/s for 1.2 s), every one an observation, delivered or censored
        assertThat(spread.fewestMessages()).isGreaterThanOrEqualTo(OpenLoad.ClientSpread.MIN_MESSAGES);
        assertThat(spread.maxP99Us()).isGreaterThanOrEqualTo(delay / 1000.0);
        assertThat(r.checks().warnings().contains(spread.warning())).isEqualTo(spread.warning() != null);
        // the other client's p99 stays under half the delay unless the machine stalled it too
        if (spread.minP99Us() < delay / 2000.0) {
            assertThat(spread.warning()).startsWith("uneven clients under open load: client p99s from ");
        }
    }

    @Test
    void openLoadClientsAreUnevenBeyondThreeTimesTheP99OrTwiceTheDropsAndOnlyOnEnoughMessages() {
        assertThat(new OpenLoad.ClientSpread(4, 5_000, 100, 300, 0, 0).warning()).isNull();
        assertThat(new OpenLoad.ClientSpread(4, 5_000, 100, 301, 0, 0).warning())
                .isEqualTo("uneven clients under open load: client p99s from 100.0 to 301.0 µs (3.0×): one p99 "
                        + "blends clients served unequally");
        // too few messages for a p99 to mean more than one outlier: not compared
        assertThat(new OpenLoad.ClientSpread(4, 999, 100, 900, 0, 0).warning()).isNull();
        assertThat(new OpenLoad.ClientSpread(4, 5_000, 100, 150, 0.001, 0.002).warning()).as("2× the drops").isNull();
        assertThat(new OpenLoad.ClientSpread(4, 5_000, 100, 150, 0.0, 0.002).warning())
                .isEqualTo("uneven drops under open load: one client never sent 0.20 % of its messages, another "
                        + "0.00 %");
        // every client dropping alike is overload, said apart, not unevenness
        assertThat(new OpenLoad.ClientSpread(4, 5_000, 100, 150, 0.05, 0.06).warning()).isNull();
        assertThat(new OpenLoad.ClientSpread(1, 5_000, 100, 900, 0, 0.5).warning()).isNull();
    }

    @Test
    void aFairRunPassesWithJainsIndexNearOne() {
        RepetitionResult r = EngineTestSupport.measure(quick().clients(4).window(4).build()).run().repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, 4);
        assertThat(r.checks().fairness().jainIndex()).isGreaterThan(0.9);
        assertThat(r.checks().fairness().minMessages()).isPositive();
        assertThat(r.checks().warmup().stoppedBecause()).isEqualTo(WarmupResult.TIME);
    }

    @Test
    void jainsIndexIsOneForEqualSharesAndOneOverNForOneClientDoingEverything() {
        assertThat(Fairness.of(new long[] {5, 5, 5, 5}).jainIndex()).isEqualTo(1.0);
        assertThat(Fairness.of(new long[] {8, 0, 0, 0}).jainIndex()).isEqualTo(0.25);
        Fairness f = Fairness.of(new long[] {3, 9});
        assertThat(f.minMessages()).isEqualTo(3);
        assertThat(f.maxMessages()).isEqualTo(9);
        assertThat(f.jainIndex()).isEqualTo(144.0 / (2 * 90));
    }

    @Test
    void compilationsInASpanAreCountedAndNamed() {
        JvmEvents jit = JvmEvents.get();
        Instant from = Instant.now();
        Instant to = from;
        long sink = 0;
        // The span lasts until a compilation of this code has started in it: the compiler takes its requests from a
        // queue that earlier tests may have left long, so a fixed span could end before it gets to them.
        List<JvmEvents.Event> ours = List.of();
        for (long deadline = System.nanoTime() + 10_000_000_000L; ours.isEmpty() && System.nanoTime() < deadline; ) {
            for (int i = 0; i < 200_000; i++) {
                sink += ColdCode.mix(i);
            }
            to = Instant.now();
            jit.awaitEvents();
            ours = jit.eventsIn(from, to).stream().filter(e -> e.kind() == JvmEvents.Kind.COMPILATION
                    && ofThisCode(e.description())).toList();
        }

        JitActivity a = jit.activity(from, to, -1);

        assertThat(sink).isNotZero();
        // ColdCode::mix on its own, or the loop that inlines it
        assertThat(ours).as("compilations of this test's code in the span").isNotEmpty();
        assertThat(a.compilations()).isGreaterThanOrEqualTo(ours.size());
        // this test's code is the harness's, not the measured path's: it counts in the JVM's figures, not the path's,
        // and quiet is what the rule says of the path's events (the span's CPU time is not given, so no share)
        assertThat(a.pathCompilations()).isLessThanOrEqualTo(a.compilations() - ours.size());
        assertThat(a.quiet()).isEqualTo(
                a.pathOptimizations() + a.pathDeoptimizations() <= JitActivity.PATH_CHANGES_ALLOWED);
        List<String> named = jit.eventsIn(from, to).stream().map(JvmEvents.Event::description).toList();
        assertThat(a.examples()).isNotEmpty().allSatisfy(e -> assertThat(named).contains(e));
        // a span of the same length just before: ColdCode had not run yet, so none of its compilations is in it
        java.time.Duration length = java.time.Duration.between(from, to);
        assertThat(jit.eventsIn(from.minus(length), from)).extracting(JvmEvents.Event::description)
                .noneMatch(SelfChecksTest::ofThisCode);
        assertThat(jit.activity(from.minus(length), from, -1).examples()).noneMatch(SelfChecksTest::ofThisCode);
    }

    /** ColdCode::mix, or the loop of the test above that inlines it. */
    private static boolean ofThisCode(String description) {
        return description.contains(ColdCode.class.getName())
                || description.contains("::compilationsInASpanAreCountedAndNamed");
    }

    /** Code no other test runs, so that it is compiled inside the span above. */
    private static final class ColdCode {
        static long mix(long x) {
            x ^= x << 13;
            x ^= x >>> 7;
            return x ^ (x << 17);
        }
    }

    @Test
    void aMeasuredPhaseThatCompilesNewCodeOnItsPathSaysItWasNotJitQuiet() {
        // the server's fault hook starts running never-compiled code 300 ms into the measured phase
        MidPhaseCompilingFault compileMidPhase = new MidPhaseCompilingFault();
        AtomicReference<Instant> measuredAt = new AtomicReference<>();
        ProgressListener progress = new ProgressListener() {
            @Override
            public void phaseStarted(int repetition, String phase, double seconds) {
                if (phase.equals("measured")) {
                    measuredAt.set(Instant.now());
                    compileMidPhase.from.set(System.nanoTime() + 300_000_000L);
                }
            }
        };
        RunSpec spec = quick().clients(2).window(2).warmupSeconds(0.5).seconds(1.2).build();

        RepetitionResult r = Measurement.of(spec).serverFault(compileMidPhase).progress(progress).run()
                .repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        JvmEvents.get().awaitEvents();
        List<JvmEvents.Event> ours = JvmEvents.get().eventsIn(measuredAt.get(), measuredAt.get().plusMillis(1300))
                .stream().filter(e -> e.measuredPath() && e.optimized()
                        && e.description().contains(MidPhaseCompilingFault.class.getName() + "::")).toList();
        assertThat(ours).as("C2/OSR compilations of the fault's code").isNotEmpty();
        assertThat(r.jvm().jit().pathOptimizations()).as("C2/OSR compilations of the path")
                .isGreaterThanOrEqualTo(ours.size());
        // quiet exactly as the rule says; the fault's six hot methods and its loop make more than the few allowed
        assertThat(r.jvm().jit().quiet())
                .isEqualTo(r.jvm().jit().pathOptimizations() + r.jvm().jit().pathDeoptimizations()
                <= JitActivity.PATH_CHANGES_ALLOWED
                        && r.jvm().jit().compileCpuShare() <= JitActivity.MAX_COMPILE_CPU_SHARE)
                .isFalse();
        assertThat(r.checks().warnings()).anyMatch(w -> w.startsWith("measured phase not JIT-quiet: "));
        // the examples name the fault's code (another thread's deoptimization may come first)
        assertThat(r.jvm().jit().examples()).anyMatch(e -> e.contains("io.loopbench.engine."));
    }

    /**
     * What the pacer guarantees, however busy the machine: every intended message is sent or counted dropped, every
     * send's lag is recorded, and a send counts late exactly when its lag exceeds the threshold. How precisely it sends
     * on an idle machine is a benchmark figure (bench/pacer.sh, docs/performance.md), not a test's bound.
     */
    @Test
    void theOpenLoopPacerAccountsForEveryIntendedMessageAndCountsASendLateExactlyWhenItsLagExceedsTheThreshold() {
        RunSpec spec = quick().clients(4).window(4).ioThreads(1).load(LoadModel.OPEN).rate(4000.0)
                .warmupSeconds(0.3).seconds(1.0).build();

        RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        OpenLoad o = r.openLoad();
        // the schedule: 4,000 a second for 1 s, split over 4 clients
        assertThat(o.intendedMessages()).isBetween(3996L, 4004L);
        assertThat(r.throughput().messagesSent() + o.droppedMessages()).isEqualTo(o.intendedMessages());
        assertThat(o.sendLag().observations()).isEqualTo(r.throughput().messagesSent());
        assertThat(o.lateMessages()).isBetween(0L, r.throughput().messagesSent());
        assertThat(o.lateThresholdUs()).isEqualTo(100.0);
        // the histogram's values are exact to 3 significant digits: allow that much either side of the threshold
        double above = o.lateThresholdUs() * 1.001;
        double below = o.lateThresholdUs() * 0.999;
        double lateShare = (double) o.lateMessages() / r.throughput().messagesSent();
        if (o.sendLag().maxUs() > above) {
            assertThat(o.lateMessages()).as("a lag of %s µs", o.sendLag().maxUs()).isPositive();
        }
        if (o.sendLag().maxUs() < below) {
            assertThat(o.lateMessages()).isZero();
        }
        if (o.sendLag().p50Us() > above) {
            assertThat(lateShare).as("median lag %s µs", o.sendLag().p50Us()).isGreaterThanOrEqualTo(0.5);
        }
        if (o.sendLag().p50Us() < below) {
            assertThat(lateShare).as("median lag %s µs", o.sendLag().p50Us()).isLessThanOrEqualTo(0.5);
        }
        if (o.sendLag().p99Us() < below) {
            assertThat(lateShare).isLessThanOrEqualTo(0.01);
        }
    }

    @Test
    void aHistogramSurvivesEncodingExactlyAndMergesExactly() {
        Random random = new Random(7);
        Histogram a = LatencyHistograms.create();
        Histogram b = LatencyHistograms.create();
        for (int i = 0; i < 50_000; i++) {
            LatencyHistograms.record(a, 1000 + random.nextInt(5_000_000));
            LatencyHistograms.record(b, 200_000 + random.nextInt(90_000_000));
        }

        Histogram decodedA = LatencyHistograms.decode(LatencyHistograms.encode(a));
        Histogram decodedB = LatencyHistograms.decode(LatencyHistograms.encode(b));

        assertThat(decodedA).isEqualTo(a);
        assertThat(decodedB).isEqualTo(b);
        Histogram merged = LatencyHistograms.merged(List.of(decodedA, decodedB));
        assertThat(merged.getTotalCount()).isEqualTo(100_000);
        assertThat(merged).isEqualTo(LatencyHistograms.merged(List.of(a, b)));
        assertThat(LatencyHistograms.latency(LatencyMode.MESSAGE, merged))
                .isEqualTo(LatencyHistograms.latency(LatencyMode.MESSAGE, LatencyHistograms.merged(List.of(a, b))));
    }

    @Test
    void theSummaryOffersPooledPercentilesOfTheStoredHistogramsBesideTheMedians() {
        MeasurementResult result = EngineTestSupport.measure(quick().repetitions(2).build()).run();

        assertThat(result.ok()).as(result.error()).isTrue();
        Histogram pooled = LatencyHistograms.merged(result.repetitions().stream()
                .map(r -> LatencyHistograms.decode(r.rtt().latencyHistogram())).toList());
        assertThat(pooled.getTotalCount()).isEqualTo(result.repetitions().stream()
                .mapToLong(r -> r.rtt().latency().observations()).sum());
        assertThat(result.summary().pooledLatency()).isEqualTo(LatencyHistograms.latency(LatencyMode.MESSAGE, pooled));
        assertThat(result.summary().latency().p50Us().median()).isEqualTo(Stat.of(
                result.repetitions().stream().map(r -> r.rtt().latency().p50Us()).toList()).median());
    }
}
