package io.loopbench.verdicts;

import io.loopbench.engine.spec.Protocol;

import java.util.EnumMap;
import java.util.Map;

/**
 * The noise the verdicts assume on this machine kind, calibrated from real A/A repetitions (bench/noise.sh: fresh
 * JVMs of one spec back to back, per protocol; docs/performance.md has the run): the scale of one round's log ratio —
 * two back-to-back repetitions of a spec — for throughput and for p99, and how far separate runs of one spec drift.
 * The floor is a floor: a load noisier than it widens its own interval ({@link ConfidenceSequence}). Stateless.
 */
public final class NoiseFloor {

    /**
     * How far the medians of two separate runs of one spec drift apart on this machine (0.10: ±10 %), beyond their
     * repetitions' own noise: a difference between runs measured at different times is established only beyond it.
     */
    public static final double DRIFT = 0.10;

    /** Round log-ratio scales, throughput then p99, per protocol (bench/noise.sh, 2026-12-04, 2-vCPU EPYC VM). */
    private static final Map<Protocol, double[]> SCALES = new EnumMap<>(Map.of(
            Protocol.TCP, new double[] {0.06, 0.12},
            Protocol.UDP, new double[] {0.06, 0.12},
            Protocol.TCPS, new double[] {0.06, 0.12},
            Protocol.WEBSOCKET, new double[] {0.06, 0.12},
            Protocol.WSS, new double[] {0.06, 0.12},
            Protocol.HTTP, new double[] {0.10, 0.20},
            Protocol.HTTPS, new double[] {0.10, 0.20}));

    /** The rounds a race's comparisons are made narrowest at: the targets are decisions by round 3 to 6. */
    public static final double RACE_ROUNDS = 2;
    /** The pairs a gate's comparisons are made narrowest at: a pass needs an interval within a few per cent. */
    public static final double GATE_ROUNDS = 8;

    private NoiseFloor() {
    }

    /** What a verdict compares. */
    public enum Metric {
        THROUGHPUT, P99
    }

    /** The noise of {@code metric} for {@code protocol}, its interval made narrowest at {@code tunedRounds}. */
    public static ConfidenceSequence.Noise of(Protocol protocol, Metric metric, double tunedRounds) {
        double[] scales = SCALES.get(protocol == null ? Protocol.TCP : protocol);
        return new ConfidenceSequence.Noise(scales[metric.ordinal()], tunedRounds);
    }
}
