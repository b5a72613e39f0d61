package io.loopbench.agents;

import io.loopbench.engine.spec.Labeled;

/**
 * Whether this service is in a cluster: {@code disabled} ({@code loopbench.cluster.enabled} is false: no agents, runs
 * on this host only) or {@code joined} (it is the coordinator of the cluster it names).
 */
public enum ClusterStatus implements Labeled {
    DISABLED, JOINED
}
