package io.loopbench.engine;

import java.util.Locale;

/**
 * Little's law as a self-check of a closed sliding-window repetition: a closed loop keeps clients × window messages
 * in flight, so round trips/s × mean RTT must come back to that number. A ratio far from 1 means the RTT clock, the
 * message count or the window is not what the figures claim (for example, time a message spends before its send
 * timestamp or after its receive timestamp).
 *
 * @param expectedInFlight clients × window
 * @param observedInFlight round trips/s × mean RTT (s): the mean number of messages in flight the figures imply
 * @param ratio            observed ÷ expected
 */
public record LittlesLaw(double expectedInFlight, double observedInFlight, double ratio) {

    /** Ratios further from 1 than this are reported as a warning on the repetition. */
    public static final double TOLERANCE = 0.05;

    public static LittlesLaw of(int clients, int window, double roundTripsPerSecond, double meanRttMicros) {
        double expected = (double) clients * window;
        double observed = roundTripsPerSecond * meanRttMicros / 1e6;
        return new LittlesLaw(expected, observed, observed / expected);
    }

    /** The warning a phase whose figures miss the law carries. */
    public String warning() {
        return String.format(Locale.ROOT, "Little's law missed by %+.1f %%: round trips/s × mean RTT gives %.2f "
                + "messages in flight, clients × window is %.0f", (ratio - 1) * 100, observedInFlight,
                expectedInFlight);
    }

    /** Whether the figures agree with the window within {@link #TOLERANCE}. */
    public boolean holds() {
        return Math.abs(ratio - 1) <= TOLERANCE;
    }
}
