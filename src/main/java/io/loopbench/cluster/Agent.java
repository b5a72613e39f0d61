package io.loopbench.cluster;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.blocks.RequestOptions;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An agent's member of the cluster ({@code ./loopbench agent}): it answers the coordinator's status request (which is
 * how it learns which member the coordinator is), tells the coordinator when its state changes, and when the
 * coordinator leaves its view (left, killed, or cut off: failure detection takes at most about
 * {@value ClusterStack#HEARTBEAT_TIMEOUT_MILLIS} ms plus {@value ClusterStack#VERIFY_MILLIS} ms) it runs its
 * "coordinator lost" hook once, on a thread of its own, so that whatever load the coordinator had started stops
 * without it.
 *
 * <p>Threads: JGroups' threads deliver requests and views; the coordinator's address, the state and the sequence are
 * atomics, so {@link #state(AgentState)} may be called from any thread.
 */
public final class Agent extends ClusterMember {

    private static final System.Logger LOG = System.getLogger(Agent.class.getName());

    private final MemberFacts facts = MemberFacts.current(MemberRole.AGENT);
    private final Runnable onCoordinatorLost;
    private final AtomicReference<Address> coordinator = new AtomicReference<>();
    private final AtomicReference<AgentState> state = new AtomicReference<>(AgentState.IDLE);
    private final AtomicLong sequence = new AtomicLong();

    private Agent(ClusterSettings settings, String memberName, Runnable onCoordinatorLost) throws Exception {
        super(settings, memberName);
        this.onCoordinatorLost = onCoordinatorLost;
    }

    /**
     * Joins the cluster these settings name as an agent called {@code memberName}; {@code onCoordinatorLost} runs
     * each time the coordinator it answered leaves the view.
     */
    public static Agent join(ClusterSettings settings, String memberName, Runnable onCoordinatorLost)
            throws Exception {
        Agent a = new Agent(settings, memberName, onCoordinatorLost);
        a.connect();
        return a;
    }

    public MemberFacts facts() {
        return facts;
    }

    /** The coordinator this agent answers to, once it has asked for this agent's status. */
    public Optional<Address> coordinator() {
        return Optional.ofNullable(coordinator.get());
    }

    public AgentState state() {
        return state.get();
    }

    /** Changes this agent's state and tells the coordinator, if there is one (one way: it does not wait). */
    public void state(AgentState next) {
        if (next == AgentState.JOINING) {
            throw new IllegalArgumentException("joining is the coordinator's word for an agent it has not heard from");
        }
        state.set(next);
        Address c = coordinator.get();
        if (c != null) {
            try {
                dispatcher.sendMessage(new BytesMessage(c, Wire.request(Wire.Kind.STATUS, status())),
                        RequestOptions.ASYNC());
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "cannot tell the coordinator this agent is {0}: {1}",
                        next.label(), e.toString());
            }
        }
    }

    private AgentStatus status() {
        return new AgentStatus(sequence.getAndIncrement(), facts, state.get());
    }

    @Override
    protected Object handle(Message request) {
        if (Wire.kind(request) == Wire.Kind.STATUS_REQUEST) {
            Address from = request.getSrc();
            if (!from.equals(coordinator.getAndSet(from))) {
                LOG.log(System.Logger.Level.INFO, "coordinator {0} found", name(from));
            }
            return Wire.reply(status());
        }
        throw new IllegalArgumentException("an agent does not answer " + Wire.kind(request));
    }

    @Override
    protected void viewAccepted(View view) {
        Address c = coordinator.get();
        if (c != null && !view.containsMember(c) && coordinator.compareAndSet(c, null)) {
            LOG.log(System.Logger.Level.WARNING, "coordinator {0} lost (view {1})", name(c), view);
            Thread.ofPlatform().name("loopbench-coordinator-lost").daemon().start(onCoordinatorLost);
        }
    }
}
