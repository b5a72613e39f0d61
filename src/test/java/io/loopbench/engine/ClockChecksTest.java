package io.loopbench.engine;

import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two checks of the clock: the window kept full (Little's law, an identity while every slot is in use, so it
 * fails only on an empty slot or a lost count) and the stamp gap (which fails on a stamp taken too early, which the
 * first cannot see). Each is shown to fire on its fault and not without it.
 */
class ClockChecksTest {

    /** 16 × 16 in flight at 100,000 round trips/s need a mean RTT of 2,560 µs. */
    @Test
    void aWindowKeptFullHoldsAndOneWithEmptySlotsIsWarned() {
        WindowFill full = WindowFill.of(16, 16, 100_000, 2_560);
        WindowFill halfEmpty = WindowFill.of(16, 16, 100_000, 1_280);

        assertThat(full.ratio()).isEqualTo(1.0);
        assertThat(full.holds()).isTrue();
        assertThat(halfEmpty.holds()).isFalse();
        assertThat(halfEmpty.warning()).isEqualTo("window not kept full: round trips/s × mean RTT gives 128.00 "
                + "messages in flight, clients × window is 256 (-50.0 %)");
        // a stamp taken 500 µs too early lengthens every RTT and the rate with it falls: the product, and the check,
        // do not move — which is why the stamp has a check of its own
        assertThat(WindowFill.of(16, 16, 256 / 3_060e-6, 3_060).holds()).isTrue();
    }

    @Test
    void aStampGapThatIsASmallShareOfTheRttHoldsAndOneTakenTooEarlyIsWarned() {
        Latency rtt = latency(100_000, 3_000_000); // every RTT 3 ms
        StampGap inPlace = StampGap.of(gaps(100_000, 20_000), rtt); // 20 µs from stamp to hand-over
        StampGap tooEarly = StampGap.of(gaps(100_000, 500_000), rtt); // 500 µs: a stamp taken before the work

        assertThat(inPlace.messages()).isEqualTo(100_000);
        assertThat(inPlace.p50Us()).isCloseTo(20.0, org.assertj.core.data.Percentage.withPercentage(0.1));
        assertThat(inPlace.share()).isCloseTo(20.0 / 3000, org.assertj.core.data.Percentage.withPercentage(0.2));
        assertThat(inPlace.holds()).isTrue();
        assertThat(tooEarly.holds()).isFalse();
        assertThat(tooEarly.warning()).isEqualTo("stamp gap: from a message's send stamp to its hand-over to the "
                + "transport took 500.2 µs at the median (p99 500.2 µs), 17 % of the RTT p50, over 10 % allowed");
    }

    private static Histogram gaps(long count, long nanos) {
        Histogram h = LatencyHistograms.create();
        h.recordValueWithCount(nanos, count);
        return h;
    }

    private static Latency latency(long count, long nanos) {
        return LatencyHistograms.latency(LatencyMode.MESSAGE, gaps(count, nanos));
    }
}
