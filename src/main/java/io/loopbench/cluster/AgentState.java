package io.loopbench.cluster;

import io.loopbench.engine.spec.Labeled;

/**
 * What an agent is doing, as the coordinator knows it: {@code joining} (in the cluster's view, its facts not yet
 * received), {@code idle}, or {@code busy} (running a part of a repetition).
 */
public enum AgentState implements Labeled {
    JOINING, IDLE, BUSY
}
