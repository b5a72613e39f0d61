package io.loopbench.verdicts;

import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;

import java.util.EnumMap;
import java.util.Map;

/**
 * The noise the verdicts assume on this machine kind, calibrated from real A/A repetitions (bench/noise.sh: fresh
 * JVMs of one spec back to back; docs/performance.md, "Noise between repetitions", has the runs): the scale of one round's
 * log ratio — two back-to-back repetitions of a spec — for throughput and for p99, and how far separate runs of one
 * spec drift. Measured on a 2-vCPU VM, shared 1's rounds spread 1.4–4.3 % in throughput (TCP 1.4 %, 2.3 % at the
 * upper 90 % bound) while TCP's sharded 2 spread 7.8 % and shared 2 11.7 %, their threads landing well or badly on
 * the cores JVM by JVM. So each protocol has two floors: one loop thread's, at the upper 90 % bound of its calibrated
 * scale, and more threads', at half the noisiest layout; a comparison takes the floor of its noisier side, and a load
 * noisier than its floor widens its own interval by its spread ({@link ConfidenceSequence}), which the simulations
 * show keeps the error rate up to twice the floor. Stateless.
 */
public final class NoiseFloor {

    /**
     * Round log-ratio scales per protocol: one loop thread's throughput and p99, then more threads' throughput and p99
     * (bench/noise.sh, 2026-12-04, a 2-vCPU Xeon VM).
     */
    private static final Map<Protocol, double[]> SCALES = new EnumMap<>(Map.ofEntries(
            Map.entry(Protocol.TCP, new double[] {0.025, 0.05, 0.06, 0.12}),
            Map.entry(Protocol.UDP, new double[] {0.05, 0.05, 0.06, 0.12}),
            Map.entry(Protocol.TCPS, new double[] {0.035, 0.05, 0.06, 0.12}),
            Map.entry(Protocol.WEBSOCKET, new double[] {0.07, 0.13, 0.07, 0.13}),
            Map.entry(Protocol.WSS, new double[] {0.05, 0.13, 0.06, 0.13}),
            Map.entry(Protocol.HTTP, new double[] {0.045, 0.17, 0.06, 0.17}),
            Map.entry(Protocol.HTTPS, new double[] {0.035, 0.17, 0.06, 0.17}),
            // 2026-12-05, every repetition counted (most warned "not JIT-quiet", their medians those of the clean
            // ones); more threads: HTTP's, or one thread's where that is wider
            Map.entry(Protocol.H2C, new double[] {0.03, 0.085, 0.06, 0.17}),
            Map.entry(Protocol.H2, new double[] {0.045, 0.085, 0.06, 0.17}),
            Map.entry(Protocol.GRPC, new double[] {0.03, 0.2, 0.06, 0.2}),
            Map.entry(Protocol.GRPCS, new double[] {0.06, 0.265, 0.06, 0.265})));

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

    /**
     * The noise of {@code metric} for {@code protocol} on {@code ioThreads} loop threads (a comparison's noisier side),
     * its interval made narrowest at {@code tunedRounds}.
     */
    public static ConfidenceSequence.Noise of(Protocol protocol, Metric metric, int ioThreads, double tunedRounds) {
        double[] scales = SCALES.get(protocol == null ? Protocol.TCP : protocol);
        return new ConfidenceSequence.Noise(scales[(ioThreads > 1 ? 2 : 0) + metric.ordinal()], tunedRounds);
    }

    /** The noise of comparing two specs: the noisier side's floor, by protocol and loop threads. */
    public static ConfidenceSequence.Noise between(RunSpec a, RunSpec b, Metric metric, double tunedRounds) {
        ConfidenceSequence.Noise x = of(a.protocol(), metric, a.ioThreads(), tunedRounds);
        ConfidenceSequence.Noise y = of(b.protocol(), metric, b.ioThreads(), tunedRounds);
        return x.floor() >= y.floor() ? x : y;
    }

    /**
     * How far the means of two separate runs of one spec drift apart on this machine, beyond their repetitions' own
     * noise (0.10: ±10 %): a difference between runs measured at different times is established only beyond it.
     * Measured: throughput within ±4 % between passes 6 minutes apart (bench/noise.sh) and 0.94–0.98× between
     * back-to-back runs of 12 repetitions (the gate's A/A of 2026-12-03); p99 within ±9 %.
     */
    public static double drift(Metric metric) {
        return metric == Metric.THROUGHPUT ? 0.10 : 0.20;
    }
}
