package io.loopbench.engine;

import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import org.HdrHistogram.Histogram;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Where the send stamps were taken, checked: per message, the time from its send stamp to the moment the client
 * handed its bytes to the transport (taken just before the flush of its read batch; see {@code Outgoing}). It is part
 * of every RTT, spent in the client before the message left: the check of the echo that freed its slot, the rest of
 * that read batch, the message's formatting. A refill is stamped when the echo that freed its slot was matched, on
 * purpose (so that the window's slots tile the phase), and the gap says what that costs each RTT: it must be a small
 * share of it. A stamp taken too early, or a client that works between stamp and send, shows here, where
 * {@link WindowFill} cannot see it.
 *
 * @param messages messages whose gap was measured: every one sent in the measured phase
 * @param p50Us    median gap, µs
 * @param p99Us    99th percentile gap, µs
 * @param share    p50Us ÷ the repetition's RTT p50 (from the actual send time, under open load too)
 */
public record StampGap(long messages, double p50Us, double p99Us, double share) {

    /** Share of the RTT p50 above which the median gap makes the stamps doubtful. */
    public static final double MAX_SHARE = 0.10;

    /** The measured phase's gaps against its RTTs ({@code rtt}: per message, from the actual send time). */
    static StampGap of(Histogram gaps, Latency rtt) {
        Latency g = LatencyHistograms.latency(LatencyMode.MESSAGE, gaps);
        return new StampGap(gaps.getTotalCount(), g.p50Us(), g.p99Us(), rtt.p50Us() > 0 ? g.p50Us() / rtt.p50Us() : 0);
    }

    /**
     * Of several repetitions' or agents' gaps, the one whose median is the largest share of its RTT; null when there
     * are none or one is unknown (a record stored before gaps were measured, an agent that sent none).
     */
    public static StampGap worst(List<StampGap> gaps) {
        if (gaps.isEmpty() || gaps.stream().anyMatch(Objects::isNull)) {
            return null;
        }
        return gaps.stream().max(Comparator.comparingDouble(StampGap::share)).orElseThrow();
    }

    /** Whether the median gap is within {@link #MAX_SHARE} of the median RTT. */
    public boolean holds() {
        return share <= MAX_SHARE;
    }

    /** The warning of a repetition whose stamps are not where the definitions say. */
    public String warning() {
        return String.format(Locale.ROOT, "stamp gap: from a message's send stamp to its hand-over to the transport "
                + "took %.1f µs at the median (p99 %.1f µs), %.0f %% of the RTT p50, over %.0f %% allowed",
                p50Us, p99Us, share * 100, MAX_SHARE * 100);
    }
}
