package io.loopbench.engine;

import io.loopbench.engine.latency.Latency;

import java.util.Locale;

/**
 * What open load did in the measured phase: how many messages were due at the rate, how many went out late, how
 * many were never sent, and how far actual sends trailed their intended times. Late and dropped messages are the
 * result of a rate the system (or the pacer) cannot follow, not errors; a repetition that drops more than
 * {@link #MAX_DROPPED_FRACTION} of its messages or delivers under {@link #MIN_ACHIEVED_FRACTION} of them is
 * overloaded, which its warnings say. Every dropped message counts in the corrected latency, censored at the phase's
 * end (it took at least that long, having never arrived), so the percentiles above the delivered share are lower
 * bounds. Immutable.
 *
 * @param rate                       the requested rate, messages per second, all clients together
 * @param intendedMessages           messages whose intended send time fell in the phase
 * @param lateMessages               of those, messages sent more than {@code lateThresholdUs} after their intended
 *                                   time, whatever the reason (a full window, or the pacer itself)
 * @param droppedMessages            of those, messages never sent (the window and its backlog were full)
 * @param lateThresholdUs            how late a send may be before it is counted late, µs
 * @param sendLag                    actual minus intended send time of every message sent, µs (its mode is
 *                                   {@code message})
 * @param overloaded                 whether it dropped over {@link #MAX_DROPPED_FRACTION} of the intended messages
 *                                   or delivered under {@link #MIN_ACHIEVED_FRACTION} of them; null in a record
 *                                   stored before the check existed
 * @param lowerBoundsAbovePercentile the share of the corrected latency's observations that were delivered, as a
 *                                   percentile: every percentile above it is a lower bound (a censored, dropped
 *                                   message); null when none was dropped
 * @param clientSpread               how evenly the clients were served: their corrected p99s and dropped shares
 *                                   (null in a record stored before it)
 */
public record OpenLoad(double rate, long intendedMessages, long lateMessages, long droppedMessages,
                       double lateThresholdUs, Latency sendLag, Boolean overloaded,
                       Double lowerBoundsAbovePercentile, ClientSpread clientSpread) {

    /** Dropped ÷ intended messages over this is overload. */
    public static final double MAX_DROPPED_FRACTION = 0.001;
    /** Delivered ÷ intended messages under this is overload (so is round trips/s ÷ the rate, in rate curves). */
    public static final double MIN_ACHIEVED_FRACTION = 0.99;

    /**
     * Fairness under open load. Every client sends at the same rate whatever the replies, so the echoes each
     * completed say little; what differs between clients served unequally is their latency and their drops. The
     * lowest and highest of the clients' corrected p99s and of their shares of dropped messages.
     *
     * @param clients          clients counted
     * @param fewestMessages   corrected observations of the client with the fewest (a p99 needs enough of them)
     * @param minP99Us         the lowest client p99, µs (corrected: from each message's intended send time)
     * @param maxP99Us         the highest client p99, µs
     * @param minDroppedShare  the lowest share of a client's intended messages it never sent
     * @param maxDroppedShare  the highest
     */
    public record ClientSpread(int clients, long fewestMessages, double minP99Us, double maxP99Us,
                               double minDroppedShare, double maxDroppedShare) {

        /**
         * The slowest client's p99 over this many times the fastest's makes the clients uneven. Calibrated on steady
         * repetitions of even layouts (bench/openspread.sh, docs/performance.md, "Open-load client spread false alarms"): 3× warned on 1 of 36, 2× on 4; a
         * client served 20 ms slower still warns.
         */
        public static final double MAX_P99_SPREAD = 3;
        /** One client dropping over this many times another's share of its messages makes the drops uneven. */
        public static final double MAX_DROP_SPREAD = 2;
        /**
         * Observations each client needs before the p99s are compared: 1,000, so that every p99 rests on at least 10
         * messages above it, not on one outlier.
         */
        public static final long MIN_MESSAGES = 1_000;

        /**
         * The warning of clients served unequally under open load: a p99 spread over {@link #MAX_P99_SPREAD} (when
         * every client has {@link #MIN_MESSAGES}), or one client dropping over {@link #MAX_DROPPED_FRACTION} of its
         * messages and over {@link #MAX_DROP_SPREAD} times the share of another; null when even (always, with one
         * client).
         */
        public String warning() {
            if (clients < 2) {
                return null;
            }
            if (fewestMessages >= MIN_MESSAGES && maxP99Us > MAX_P99_SPREAD * minP99Us) {
                return String.format(Locale.ROOT, "uneven clients under open load: client p99s from %,.1f to %,.1f µs "
                        + "(%.1f×): one p99 blends clients served unequally", minP99Us, maxP99Us, maxP99Us / minP99Us);
            }
            if (maxDroppedShare > MAX_DROPPED_FRACTION && maxDroppedShare > MAX_DROP_SPREAD * minDroppedShare) {
                return String.format(Locale.ROOT, "uneven drops under open load: one client never sent %.2f %% of its "
                        + "messages, another %.2f %%", maxDroppedShare * 100, minDroppedShare * 100);
            }
            return null;
        }
    }

    /** The figures of a measured phase that delivered {@code delivered} validated echoes. */
    public static OpenLoad of(double rate, long intendedMessages, long lateMessages, long droppedMessages,
                              double lateThresholdUs, Latency sendLag, long delivered, ClientSpread clientSpread) {
        double dropped = intendedMessages == 0 ? 0 : (double) droppedMessages / intendedMessages;
        boolean overloaded = dropped > MAX_DROPPED_FRACTION
                || delivered < MIN_ACHIEVED_FRACTION * intendedMessages;
        Double bound = droppedMessages == 0 ? null : 100.0 * delivered / (delivered + droppedMessages);
        return new OpenLoad(rate, intendedMessages, lateMessages, droppedMessages, lateThresholdUs, sendLag,
                overloaded, bound, clientSpread);
    }

    /** The share of the intended messages that were never sent. */
    public double droppedFraction() {
        return intendedMessages == 0 ? 0 : (double) droppedMessages / intendedMessages;
    }

    /**
     * The warning an overloaded repetition carries, for its {@code delivered} validated echoes; null when it is not
     * overloaded.
     */
    public String warning(long delivered) {
        if (!Boolean.TRUE.equals(overloaded)) {
            return null;
        }
        return String.format(Locale.ROOT, "overloaded: %,d of %,d intended messages (%.2f %%) were never sent and "
                        + "%.1f %% were delivered, at a rate of %,.0f/s", droppedMessages, intendedMessages,
                droppedFraction() * 100, intendedMessages == 0 ? 0 : 100.0 * delivered / intendedMessages, rate)
                + (lowerBoundsAbovePercentile == null ? "" : String.format(Locale.ROOT, "; the corrected latency "
                + "counts every unsent message as lasting at least until the phase ended, so its percentiles above "
                + "the %.2f-th are lower bounds", lowerBoundsAbovePercentile));
    }
}
