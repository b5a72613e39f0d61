package io.loopbench.engine;

/**
 * What a repetition's measured phase moved; every figure null when it measured nothing. Immutable.
 *
 * @param elapsedSeconds      measured phase wall time, drain and barrier included (as arknet)
 * @param messagesSent        messages written in the measured phase
 * @param messages            validated echoes in the measured phase
 * @param roundTripsPerSecond messages / elapsedSeconds
 * @param payloadMibPerSecond 2 × payloadBytes × messages / elapsedSeconds / 2^20 (both directions)
 */
public record Throughput(Double elapsedSeconds, Long messagesSent, Long messages, Double roundTripsPerSecond,
                         Double payloadMibPerSecond) {

    public static final Throughput NONE = new Throughput(null, null, null, null, null);

    /** The figures of {@code messagesSent} and {@code messages} of {@code payloadBytes} each in {@code elapsed} s. */
    public static Throughput of(double elapsed, long messagesSent, long messages, int payloadBytes) {
        return new Throughput(elapsed, messagesSent, messages, messages / elapsed,
                2.0 * payloadBytes * messages / elapsed / (1 << 20));
    }
}
