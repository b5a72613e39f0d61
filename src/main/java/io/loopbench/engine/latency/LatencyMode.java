package io.loopbench.engine.latency;

import io.loopbench.engine.spec.Labeled;

/** What one RTT observation covers: one message, or one batch of window messages. */
public enum LatencyMode implements Labeled {
    MESSAGE, BATCH
}
