package io.loopbench.engine.process;

/**
 * Process CPU (user + system, all threads, both peers) over the measured phase and its drain.
 *
 * @param seconds         CPU seconds used in the interval (10 ms clock-tick granularity on Linux)
 * @param intervalSeconds wall seconds of the same interval
 * @param percent         seconds / intervalSeconds × 100; 100 % is one logical CPU
 */
public record CpuUsage(double seconds, double intervalSeconds, double percent) {
}
