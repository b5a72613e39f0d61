package io.loopbench.engine;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A repetition held at its gate warms up, waits there and begins its measured phase only once released; cancelled
 * while held, or never released, it stops.
 */
class MeasuredPhaseGateTest {

    @Test
    void theMeasuredPhaseBeginsOnlyOnRelease() throws Exception {
        MeasuredPhaseGate gate = new MeasuredPhaseGate(Duration.ofSeconds(30));
        AtomicLong measuredAt = new AtomicLong();
        AtomicLong warmupAt = new AtomicLong();
        Measurement m = EngineTestSupport.measure(quick().seconds(0.3).build()).control(new RunControl().holdMeasuredPhase(gate))
                .progress(new ProgressListener() {
                    @Override
                    public void phaseStarted(int repetition, String phase, double seconds) {
                        ("measured".equals(phase) ? measuredAt : warmupAt).set(System.nanoTime());
                    }
                });
        CompletableFuture<RepetitionResult> run = CompletableFuture.supplyAsync(() -> m.runRepetition(1),
                r -> Thread.ofPlatform().start(r));
        assertThat(gate.awaitArrival(Duration.ofSeconds(60))).isTrue();
        assertThat(warmupAt.get()).isPositive();
        Thread.sleep(300);
        assertThat(measuredAt.get()).as("held, not measuring").isZero();
        long released = System.nanoTime();
        gate.release();
        RepetitionResult r = run.get(10, TimeUnit.SECONDS);
        EngineTestSupport.assertValidatedByEveryClient(r, quick().build().clients());
        assertThat(measuredAt.get()).isGreaterThanOrEqualTo(released);
        // by the release, not the gate's own 30 s limit (how soon after it is the scheduler's business)
        assertThat(measuredAt.get() - released).isLessThan(Duration.ofSeconds(10).toNanos());
    }

    @Test
    void heldRepetitionsStopWhenCancelledOrNeverReleased() throws Exception {
        RunControl control = new RunControl();
        MeasuredPhaseGate gate = new MeasuredPhaseGate(Duration.ofSeconds(30));
        Measurement cancelled = EngineTestSupport.measure(quick().build()).control(control.holdMeasuredPhase(gate));
        CompletableFuture<RepetitionResult> run = CompletableFuture.supplyAsync(() -> cancelled.runRepetition(1),
                r -> Thread.ofPlatform().start(r));
        assertThat(gate.awaitArrival(Duration.ofSeconds(60))).isTrue();
        control.cancel();
        assertThatThrownBy(() -> run.get(2, TimeUnit.SECONDS)).hasCauseInstanceOf(CancellationException.class);

        Measurement forgotten = EngineTestSupport.measure(quick().build())
                .control(new RunControl().holdMeasuredPhase(new MeasuredPhaseGate(Duration.ofMillis(200))));
        assertThatThrownBy(() -> forgotten.runRepetition(1)).isInstanceOf(CancellationException.class)
                .hasMessageContaining("not released for the measured phase");
    }
}
