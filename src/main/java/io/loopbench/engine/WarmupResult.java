package io.loopbench.engine;

/** The warm-up phase of a repetition: its messages and errors (any error fails the repetition). */
public record WarmupResult(double elapsedSeconds, long messages, ErrorCounts errors) {
}
