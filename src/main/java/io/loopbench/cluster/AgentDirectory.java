package io.loopbench.cluster;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.blocks.RequestOptions;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's list of agents: it asks each member that joins for its status, keeps each agent's newest status
 * and forgets a member when it leaves the view. Threads: JGroups' threads deliver views, answers and statuses; the
 * statuses are a concurrent map updated atomically per member, so {@link #agents()} may be called from any thread
 * and sees each agent's newest status.
 */
final class AgentDirectory {

    private static final System.Logger LOG = System.getLogger(AgentDirectory.class.getName());
    /** How long a joining member has to answer the status request before it is asked again. */
    static final long STATUS_TIMEOUT_MILLIS = 5_000;
    /** How long after an unanswered status request the member is asked again. */
    static final long STATUS_RETRY_MILLIS = 1_000;

    private final Coordinator coordinator;
    private final Map<Address, AgentStatus> statuses = new ConcurrentHashMap<>();
    private final Set<Address> asked = ConcurrentHashMap.newKeySet();

    AgentDirectory(Coordinator coordinator) {
        this.coordinator = coordinator;
    }

    /** The agents in the current view, by name: each with its newest status, or {@code joining} until it came. */
    List<KnownAgent> agents() {
        return coordinator.members().stream()
                .filter(m -> !m.equals(coordinator.address()))
                .map(m -> {
                    AgentStatus s = statuses.get(m);
                    if (s != null && s.facts().role() != MemberRole.AGENT) {
                        return null;
                    }
                    return new KnownAgent(coordinator.name(m), coordinator.ipOf(m), s == null ? AgentState.JOINING : s.state(),
                            s == null ? null : s.facts());
                })
                .filter(Objects::nonNull)
                .sorted(Comparator.comparing(KnownAgent::member).thenComparing(KnownAgent::address,
                        Comparator.nullsLast(Comparator.naturalOrder())))
                .toList();
    }

    /** Forgets the members that left the view, and asks each new one for its status. */
    void viewChanged(List<Address> members) {
        statuses.keySet().retainAll(members);
        asked.retainAll(members);
        for (Address m : members) {
            if (!m.equals(coordinator.address()) && !statuses.containsKey(m) && asked.add(m)) {
                askStatus(m);
            }
        }
    }

    /**
     * Asks a member for its status without holding up the view's delivery. A member that fails to answer (a loaded
     * host may take longer than {@link #STATUS_TIMEOUT_MILLIS}) is asked again a second later for as long as it stays
     * in the view without a status: waiting for the next view would leave it listed as joining while no member
     * joins or leaves.
     */
    private void askStatus(Address member) {
        try {
            coordinator.dispatcher.<byte[]>sendMessageWithFuture(
                    new BytesMessage(member, Wire.request(Wire.Kind.STATUS_REQUEST, null)),
                    RequestOptions.SYNC().timeout(STATUS_TIMEOUT_MILLIS))
                    .orTimeout(STATUS_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                    .whenComplete((reply, failure) -> {
                        if (failure != null) {
                            asked.remove(member);
                            LOG.log(System.Logger.Level.WARNING, "no status from cluster member {0}: {1}",
                                    coordinator.name(member), failure.toString());
                            CompletableFuture.delayedExecutor(STATUS_RETRY_MILLIS, TimeUnit.MILLISECONDS)
                                    .execute(() -> askAgain(member));
                        } else {
                            record(member, Wire.reply(reply, AgentStatus.class));
                        }
                    });
        } catch (Exception e) {
            asked.remove(member);
            LOG.log(System.Logger.Level.WARNING, "cannot ask cluster member {0} for its status: {1}", coordinator.name(member),
                    e.toString());
        }
    }

    /** Asks a member that has not answered yet, if it is still in the view and nobody is asking it already. */
    private void askAgain(Address member) {
        if (coordinator.members().contains(member) && !statuses.containsKey(member) && asked.add(member)) {
            askStatus(member);
        }
    }

    /** Keeps a member's status unless it already has a newer one. */
    void record(Address member, AgentStatus status) {
        if (!coordinator.members().contains(member)) {
            return; // left while its answer was on the way
        }
        if (status.facts().role() != MemberRole.AGENT) {
            LOG.log(System.Logger.Level.WARNING, "cluster member {0} on {1} is another coordinator; a cluster has "
                    + "one, so it is not listed as an agent", coordinator.name(member), status.facts().hostName());
        }
        boolean[] first = {false};
        statuses.compute(member, (m, old) -> {
            first[0] = old == null;
            return old == null || status.sequence() > old.sequence() ? status : old;
        });
        if (first[0]) {
            LOG.log(System.Logger.Level.INFO, "agent {0} joined: {1}, {2} CPUs, Java {3}", coordinator.name(member),
                    status.facts().hostName(), status.facts().logicalCpus(), status.facts().javaVersion());
        }
    }
}
