package io.loopbench.engine;

import io.loopbench.engine.server.ServerFault;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.spec.WindowMode;
import io.loopbench.engine.timeline.Timeline;
import io.loopbench.engine.timeline.TimelineInterval;
import org.HdrHistogram.AbstractHistogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/** The timeline: intervals that add up, and a known stall and a forced GC found in the intervals they happened in. */
class TimelineTest {

    @ParameterizedTest
    @CsvSource({"netty,tcp,sliding", "netty,udp,sliding", "netty,tcp,batch", "reactive,tcp,sliding",
            "virtual-threads,tcp,sliding"})
    void theIntervalsCountsAddUpToTheRepetitionsMessages(String execution, String protocol, String windowMode) {
        RunSpec spec = quick(Labeled.parse(Execution.class, execution)).protocol(Labeled.parse(Protocol.class, protocol))
                .windowMode(Labeled.parse(WindowMode.class, windowMode)).build();
        List<TimelineInterval> live = new CopyOnWriteArrayList<>();
        ProgressListener progress = new ProgressListener() {
            @Override
            public void intervalRecorded(int repetition, TimelineInterval interval, AbstractHistogram rtt) {
                live.add(interval);
            }
        };

        RepetitionResult r = EngineTestSupport.measure(spec).progress(progress).run().repetitions().getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        Timeline t = r.timeline();
        int w = t.warmupIntervals();
        assertThat(t.intervalMillis()).isEqualTo(100);
        // 0.6 s measured: six intervals, the last running on into the drain; the warm-up's 0.2 s and its drain and
        // barrier, two or three (a last interval shorter than half an interval joins the one before)
        assertThat(t.size() - w).isEqualTo(6);
        assertThat(w).isEqualTo(Math.max(1, Math.round(r.checks().warmup().elapsedSeconds() * 10)));
        assertThat(sum(t.roundTrips(), w, t.size())).isEqualTo(r.throughput().messages());
        assertThat(sum(t.roundTrips(), 0, w)).isEqualTo(r.checks().warmup().messages());
        assertThat(t.seconds().subList(w, t.size() - 1)).containsOnly(0.1);
        assertThat(t.seconds().getLast()).isGreaterThanOrEqualTo(0.1);
        assertThat(t.startSeconds()).isSorted();
        assertThat(t.startSeconds().get(w)).isGreaterThanOrEqualTo(0.2);
        IntStream.range(0, t.size()).forEach(i -> assertThat(t.roundTripsPerSecond().get(i))
                .isCloseTo(t.roundTrips().get(i) / t.seconds().get(i), withPercentage(0.01)));
        IntStream.range(w, t.size()).forEach(i -> assertThat(t.p50Us().get(i)).isPositive()
                .isLessThanOrEqualTo(t.p99Us().get(i)).isLessThanOrEqualTo(t.maxUs().get(i)));
        assertThat(t.lateMessages()).isNull();
        // every interval was told as it closed, in order, with the stored figures
        assertThat(live).hasSize(t.size());
        assertThat(live).extracting(TimelineInterval::roundTrips).containsExactlyElementsOf(t.roundTrips());
        assertThat(live.subList(0, w)).extracting(TimelineInterval::phase).containsOnly("warmup");
        assertThat(live.subList(w, t.size())).extracting(TimelineInterval::phase).containsOnly("measured");
    }

    @Test
    void aServerStallShowsInExactlyTheIntervalsItCovers() {
        AtomicLong measuredFrom = new AtomicLong(Long.MAX_VALUE);
        AtomicLong stalledAt = new AtomicLong();
        long stallNanos = 200_000_000;
        ServerFault stallOnce = new ServerFault() {
            @Override
            public long stallNanos() {
                long now = System.nanoTime();
                if (now - measuredFrom.get() > 1_050_000_000L && stalledAt.compareAndSet(0, now)) {
                    return stallNanos;
                }
                return 0;
            }
        };
        ProgressListener progress = measuredStart(measuredFrom);
        // open load on one loop thread, as the coordinated-omission test: the stall stops the client too, and every
        // message due during it waits for it
        RunSpec spec = RunSpec.builder().clients(1).window(1024).payloadBytes(64).ioThreads(1)
                .load(LoadModel.OPEN).rate(5000.0).warmupSeconds(0.5).warmupMode(WarmupMode.FIXED).seconds(2.0)
                .repetitions(1).build();

        RepetitionResult r = EngineTestSupport.measure(spec).serverFault(stallOnce).progress(progress).run().repetitions()
                .getFirst();

        EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
        Timeline t = r.timeline();
        int w = t.warmupIntervals();
        int first = w + (int) ((stalledAt.get() - measuredFrom.get()) / 100_000_000L);
        int last = w + (int) ((stalledAt.get() + stallNanos - measuredFrom.get()) / 100_000_000L);
        assertThat(last - first).isEqualTo(2); // it starts 50 ms into an interval: it covers three
        // nothing came back in the interval wholly inside it
        assertThat(t.roundTrips().get(first + 1)).isZero();
        // what waited for it came back as it ended: the phase's largest RTT is in the stall's last interval, at
        // least the part of the stall a message due at its start waited through, and late sends were counted there
        int largest = IntStream.range(w, t.size()).boxed().max(java.util.Comparator.comparing(t.maxUs()::get))
                .orElseThrow();
        assertThat(largest).as("interval of the largest RTT, maxima %s", t.maxUs()).isEqualTo(last);
        assertThat(t.maxUs().get(last)).isGreaterThan(stallNanos / 1000.0 / 2);
        assertThat(t.p99Us().get(last)).isGreaterThan(t.p99Us().get(first));
        assertThat(t.lateMessages().get(last)).isPositive();
        assertThat(sum(t.roundTrips(), w, t.size())).isEqualTo(r.throughput().messages());
        assertThat(sum(t.lateMessages(), w, t.size())).isEqualTo(r.openLoad().lateMessages());
        assertThat(sum(t.droppedMessages(), w, t.size())).isEqualTo(r.openLoad().droppedMessages());
    }

    @Test
    void aForcedGcDuringTheMeasuredPhaseIsMarkedInItsInterval() {
        AtomicLong measuredFrom = new AtomicLong(Long.MAX_VALUE);
        AtomicLong calledAt = new AtomicLong();
        AtomicLong returnedAt = new AtomicLong();
        ServerFault collectOnce = new ServerFault() {
            @Override
            public long delayNanos() {
                long now = System.nanoTime();
                if (now - measuredFrom.get() > 550_000_000L && calledAt.compareAndSet(0, now)) {
                    System.gc();
                    returnedAt.set(System.nanoTime());
                }
                return 0;
            }
        };
        RunSpec spec = quick().clients(2).window(2).seconds(1.2).build();

        RepetitionResult r = Measurement.of(spec).serverFault(collectOnce).progress(measuredStart(measuredFrom))
                .run().repetitions().getFirst();

        // every echo validated; a full collection of a test JVM's heap may stall the loop past a quarter of the phase,
        // which the repetition rightly calls unfair, and which is no reason to lose its timeline
        assertThat(r.checks().errors().total()).isZero();
        assertThat(r.ok() || r.failure() instanceof Failure.Stalled).as(r.error()).isTrue();
        Timeline t = r.timeline();
        // the collection began while System.gc() ran: its mark is in an interval between the call's and the return's
        int from = t.warmupIntervals() + (int) ((calledAt.get() - measuredFrom.get()) / 100_000_000L);
        int to = Math.min(t.size() - 1,
                t.warmupIntervals() + (int) ((returnedAt.get() - measuredFrom.get()) / 100_000_000L));
        assertThat(sum(t.gcCollections(), from, to + 1)).as("collections in intervals %d-%d: %s", from, to,
                t.gcCollections()).isPositive();
        assertThat(IntStream.rangeClosed(from, to).mapToDouble(t.gcPauseMillis()::get).sum()).isPositive();
        assertThat(sum(t.gcCollections(), t.warmupIntervals(),
                t.size())).isLessThanOrEqualTo(r.jvm().gc().collections());
    }

    /** Notes when the measured phase begins. */
    private static ProgressListener measuredStart(AtomicLong at) {
        return new ProgressListener() {
            @Override
            public void phaseStarted(int repetition, String phase, double seconds) {
                if (phase.equals("measured")) {
                    at.set(System.nanoTime());
                }
            }
        };
    }

    private static long sum(List<? extends Number> column, int from, int to) {
        return column.subList(from, to).stream().mapToLong(Number::longValue).sum();
    }
}
