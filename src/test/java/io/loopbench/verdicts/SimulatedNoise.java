package io.loopbench.verdicts;

import java.util.SplittableRandom;

/** Seeded noise for the verdicts' simulations. Stateless; the random source is the caller's. */
public final class SimulatedNoise {

    private SimulatedNoise() {
    }

    /** A standard normal draw (Box–Muller). */
    public static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    /** Student's t with 3 degrees of freedom, scaled to unit variance: heavy tails. */
    public static double studentT3(SplittableRandom random) {
        double chi = 0;
        for (int i = 0; i < 3; i++) {
            double g = gaussian(random);
            chi += g * g;
        }
        return gaussian(random) / Math.sqrt(chi / 3) / Math.sqrt(3);
    }
}
