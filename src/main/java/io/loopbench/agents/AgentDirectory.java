package io.loopbench.agents;

import io.loopbench.cluster.Coordinator;

import java.util.Optional;

/**
 * The service's side of the cluster: its {@link Coordinator} when {@code loopbench.cluster.enabled}, nothing
 * otherwise. Owns the coordinator and closes it (leaving the cluster) when the service stops.
 *
 * <p>Threads: immutable after construction; {@link #view()} may be called from any thread (the coordinator's list is
 * concurrent).
 */
public final class AgentDirectory implements AutoCloseable {

    private final Coordinator coordinator;

    /** @param coordinator the joined coordinator, or null when clustering is off */
    AgentDirectory(Coordinator coordinator) {
        this.coordinator = coordinator;
    }

    /** The coordinator, when clustering is on: runs across hosts are placed through it. */
    public Optional<Coordinator> coordinator() {
        return Optional.ofNullable(coordinator);
    }

    public AgentsView view() {
        if (coordinator == null) {
            return AgentsView.DISABLED;
        }
        return new AgentsView(ClusterStatus.JOINED, coordinator.clusterName(), coordinator.endpoint(),
                coordinator.facts(), coordinator.agents());
    }

    @Override
    public void close() {
        if (coordinator != null) {
            coordinator.close();
        }
    }
}
