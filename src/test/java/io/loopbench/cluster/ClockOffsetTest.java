package io.loopbench.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** NTP's estimate on probes whose truth is known: the agent's clock 3 s ahead, delays uneven both ways. */
class ClockOffsetTest {

    private static final long OFFSET = 3_000_000_000L;

    /** A probe sent at coordinator time {@code t}, {@code out} ns on the way there, held {@code hold}, {@code back}. */
    private static ClockProbe probe(long t, long out, long hold, long back) {
        return new ClockProbe(t, t + out + OFFSET, t + out + hold + OFFSET, t + out + hold + back);
    }

    @Test
    void theShortestProbeGivesTheOffsetAndHalfItsDelayBoundsTheError() {
        ClockOffset o = ClockOffset.estimate(List.of(
                probe(1_000, 900_000, 50_000, 100_000),     // delay 1 ms, very uneven
                probe(5_000_000, 100_000, 20_000, 300_000), // delay 400 µs: the shortest
                probe(9_000_000, 2_000_000, 10_000, 200_000)));
        assertThat(o.probes()).isEqualTo(3);
        assertThat(o.uncertaintyNanos()).isEqualTo(200_000);
        // out 100 µs, back 300 µs: the symmetric assumption is off by (300 - 100) / 2 = 100 µs, within the bound
        assertThat(o.offsetNanos()).isEqualTo(OFFSET - 100_000);
        assertThat(Math.abs(o.offsetNanos() - OFFSET)).isLessThanOrEqualTo(o.uncertaintyNanos());
        assertThat(o.toCoordinator(o.toAgent(42))).isEqualTo(42);
        assertThat(o.toAgent(0)).isEqualTo(o.offsetNanos());
    }

    @Test
    void clocksWhoseOffsetWrapsAroundAreEstimatedAlike() {
        // nanoTime's origin is arbitrary on each host: here the agent's reads wrap past Long.MAX_VALUE
        long truth = Long.MAX_VALUE - 1_000;
        long t0 = 5_000;
        ClockProbe p = new ClockProbe(t0, t0 + 100 + truth, t0 + 200 + truth, t0 + 400);
        ClockOffset o = ClockOffset.estimate(List.of(p));
        assertThat(p.delayNanos()).isEqualTo(300);
        assertThat(Math.abs(o.offsetNanos() - truth)).isLessThanOrEqualTo(o.uncertaintyNanos());
        assertThat(o.toAgent(t0 + 150) - (t0 + 150 + truth)).isBetween(-o.uncertaintyNanos(), o.uncertaintyNanos());
        assertThat(o.toCoordinator(o.toAgent(t0))).isEqualTo(t0);
        assertThatThrownBy(() -> ClockOffset.estimate(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
