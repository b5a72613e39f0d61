package io.loopbench.engine;

/** What one RTT observation covers: one message, or one batch of window messages. */
public enum LatencyMode implements Labeled {
    MESSAGE, BATCH
}
