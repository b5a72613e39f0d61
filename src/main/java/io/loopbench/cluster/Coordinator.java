package io.loopbench.cluster;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.blocks.RequestOptions;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The service's member of the cluster: it asks each member that joins for its status, keeps each agent's newest
 * status, forgets a member when it leaves the view, and lists the agents ({@link #agents()}).
 *
 * <p>Threads: JGroups' threads deliver views, answers and statuses; the statuses are a concurrent map updated
 * atomically per member, so {@link #agents()} may be called from any thread and sees each agent's newest status.
 */
public final class Coordinator extends ClusterMember {

    private static final System.Logger LOG = System.getLogger(Coordinator.class.getName());
    /** How long a joining member has to answer the status request before it is asked again at the next view. */
    static final long STATUS_TIMEOUT_MILLIS = 5_000;

    private final MemberFacts facts = MemberFacts.current(MemberRole.COORDINATOR);
    private final Map<Address, AgentStatus> statuses = new ConcurrentHashMap<>();
    private final Set<Address> asked = ConcurrentHashMap.newKeySet();

    private Coordinator(ClusterSettings settings, String memberName) throws Exception {
        super(settings, memberName);
    }

    /** Joins the cluster these settings name as its coordinator, under the name {@code memberName}. */
    public static Coordinator join(ClusterSettings settings, String memberName) throws Exception {
        Coordinator c = new Coordinator(settings, memberName);
        c.connect();
        return c;
    }

    /** The coordinator's own facts. */
    public MemberFacts facts() {
        return facts;
    }

    public String clusterName() {
        return settings.name();
    }

    /** The agents in the current view, by name: each with its newest status, or {@code joining} until it came. */
    public List<KnownAgent> agents() {
        return members().stream()
                .filter(m -> !m.equals(address()))
                .map(m -> {
                    AgentStatus s = statuses.get(m);
                    if (s != null && s.facts().role() != MemberRole.AGENT) {
                        return null;
                    }
                    return new KnownAgent(name(m), ipOf(m), s == null ? AgentState.JOINING : s.state(),
                            s == null ? null : s.facts());
                })
                .filter(Objects::nonNull)
                .sorted(Comparator.comparing(KnownAgent::member).thenComparing(KnownAgent::address,
                        Comparator.nullsLast(Comparator.naturalOrder())))
                .toList();
    }

    @Override
    protected void viewAccepted(View view) {
        statuses.keySet().retainAll(view.getMembers());
        asked.retainAll(view.getMembers());
        for (Address m : view.getMembers()) {
            if (!m.equals(address()) && !statuses.containsKey(m) && asked.add(m)) {
                askStatus(m);
            }
        }
    }

    /** Asks a member for its status without holding up the view's delivery; a member that fails to answer is asked
     *  again at the next view. */
    private void askStatus(Address member) {
        try {
            dispatcher.<byte[]>sendMessageWithFuture(
                    new BytesMessage(member, Wire.request(Wire.Kind.STATUS_REQUEST, null)),
                    RequestOptions.SYNC().timeout(STATUS_TIMEOUT_MILLIS))
                    .whenComplete((reply, failure) -> {
                        if (failure != null) {
                            asked.remove(member);
                            LOG.log(System.Logger.Level.WARNING, "no status from cluster member {0}: {1}",
                                    name(member), failure.toString());
                        } else {
                            record(member, Wire.reply(reply, AgentStatus.class));
                        }
                    });
        } catch (Exception e) {
            asked.remove(member);
            LOG.log(System.Logger.Level.WARNING, "cannot ask cluster member {0} for its status: {1}", name(member),
                    e.toString());
        }
    }

    private void record(Address member, AgentStatus status) {
        if (!members().contains(member)) {
            return; // left while its answer was on the way
        }
        if (status.facts().role() != MemberRole.AGENT) {
            LOG.log(System.Logger.Level.WARNING, "cluster member {0} on {1} is another coordinator; a cluster has "
                    + "one, so it is not listed as an agent", name(member), status.facts().hostName());
        }
        boolean[] first = {false};
        statuses.compute(member, (m, old) -> {
            first[0] = old == null;
            return old == null || status.sequence() > old.sequence() ? status : old;
        });
        if (first[0]) {
            LOG.log(System.Logger.Level.INFO, "agent {0} joined: {1}, {2} CPUs, Java {3}", name(member),
                    status.facts().hostName(), status.facts().logicalCpus(), status.facts().javaVersion());
        }
    }

    @Override
    protected Object handle(Message request) {
        if (Wire.kind(request) == Wire.Kind.STATUS) {
            record(request.getSrc(), Wire.body(request, AgentStatus.class));
            return null;
        }
        throw new IllegalArgumentException("a coordinator does not answer " + Wire.kind(request));
    }
}
