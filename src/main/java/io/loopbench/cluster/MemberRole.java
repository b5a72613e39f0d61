package io.loopbench.cluster;

import io.loopbench.engine.spec.Labeled;

/**
 * What a member is: the {@code coordinator} (the service, which plans runs and lists the agents; one per cluster) or
 * an {@code agent} ({@code ./loopbench agent}, which runs load on its host when told).
 */
public enum MemberRole implements Labeled {
    COORDINATOR, AGENT
}
