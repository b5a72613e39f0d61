package io.loopbench.engine.spec;

/** How a client keeps its window of messages in flight: {@code sliding} sends a new message the moment one returns (one RTT observation per message); {@code batch} writes the whole window, reads it all back and records one RTT observation per batch. */
public enum WindowMode implements Labeled {
    SLIDING, BATCH
}
