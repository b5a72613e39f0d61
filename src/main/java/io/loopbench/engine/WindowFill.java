package io.loopbench.engine;

import java.util.Locale;

/**
 * Whether a closed sliding-window repetition kept its window full: such a load keeps clients × window messages in
 * flight, so by Little's law round trips/s × mean RTT must come back to that number. Each refill is stamped with the
 * receive instant of the echo that freed its slot, so a slot's RTTs tile the phase and the ratio is 1 by construction
 * as long as every slot stays in use and every echo is counted: this checks the window and the counts (a slot left
 * empty, an echo not counted, a phase's time wrongly measured), not where a stamp was taken. The stamp's own check is
 * {@link StampGap}.
 *
 * @param expectedInFlight clients × window
 * @param observedInFlight round trips/s × mean RTT (s): the mean number of messages in flight the figures imply
 * @param ratio            observed ÷ expected
 */
public record WindowFill(double expectedInFlight, double observedInFlight, double ratio) {

    /** Ratios further from 1 than this are reported as a warning on the repetition. */
    public static final double TOLERANCE = 0.05;

    public static WindowFill of(int clients, int window, double roundTripsPerSecond, double meanRttMicros) {
        double expected = (double) clients * window;
        double observed = roundTripsPerSecond * meanRttMicros / 1e6;
        return new WindowFill(expected, observed, observed / expected);
    }

    /** The warning a phase whose figures show the window not kept full carries. */
    public String warning() {
        return String.format(Locale.ROOT, "window not kept full: round trips/s × mean RTT gives %.2f messages in "
                + "flight, clients × window is %.0f (%+.1f %%)", observedInFlight, expectedInFlight,
                (ratio - 1) * 100);
    }

    /** Whether the figures agree with the window within {@link #TOLERANCE}. */
    public boolean holds() {
        return Math.abs(ratio - 1) <= TOLERANCE;
    }
}
