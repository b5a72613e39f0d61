package io.loopbench.engine;

/**
 * The warm-up phase of a repetition: its messages and errors (any error fails the repetition).
 *
 * @param elapsedSeconds warm-up wall time, drain included
 * @param messages       validated echoes in the warm-up
 * @param errors         the warm-up's error counters
 */
public record WarmupResult(double elapsedSeconds, long messages, ErrorCounts errors) {
}
