package io.loopbench.cluster;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.blocks.RequestOptions;
import org.jgroups.blocks.Response;

import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.timeline.TimelineInterval;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * An agent's member of the cluster ({@code ./loopbench agent}): it answers the coordinator's status request (which is
 * how it learns which member the coordinator is), tells the coordinator when its state changes, and when the
 * coordinator leaves its view (left, killed, or cut off: failure detection takes at most about
 * {@value ClusterStack#HEARTBEAT_TIMEOUT_MILLIS} ms plus {@value ClusterStack#VERIFY_MILLIS} ms) it stops whatever
 * load the coordinator had placed here and runs its "coordinator lost" hook once, on a thread of its own.
 *
 * <p>It takes part in a repetition across hosts ({@link AgentWork}): it runs a standing echo server, or clients
 * warmed up and held before their measured phase, or both; it answers clock probes with its own monotonic
 * clock's readings, starts at the instant of its clock the coordinator names (sleeping, then spinning the last
 * {@value #SPIN_NANOS} ns) and answers with the instant it actually started, sends its part of a phase
 * ({@link AgentPart}) when asked, and stops its server and clients when the repetition ends.
 *
 * <p>Threads: JGroups' threads deliver requests and views; a start barrier waits on a thread of its own, which runs
 * the start action and answers, as does the preparation of clients once they are started (started on the delivering
 * thread, so that the coordinator's end, delivered after, finds them). The coordinator's address, the state, the
 * sequence, the start action and the part source are atomics or volatile, so every method may be called from any
 * thread.
 */
public final class Agent extends ClusterMember {

    private static final System.Logger LOG = System.getLogger(Agent.class.getName());
    /** The last stretch before a start instant is spun rather than slept. */
    static final long SPIN_NANOS = 2_000_000;

    private final MemberFacts facts = MemberFacts.current(MemberRole.AGENT);
    private final Runnable onCoordinatorLost;
    private final AgentWork work;
    private final AtomicReference<Address> coordinator = new AtomicReference<>();
    private final AtomicReference<AgentState> state = new AtomicReference<>(AgentState.IDLE);
    private final AtomicLong sequence = new AtomicLong();
    private final LongSupplier clock;
    private volatile Runnable startAction = () -> { };
    private volatile Supplier<AgentPart> part;

    private Agent(ClusterSettings settings, String memberName, Runnable onCoordinatorLost, LongSupplier clock)
            throws Exception {
        super(settings, memberName);
        this.onCoordinatorLost = onCoordinatorLost;
        this.clock = clock;
        this.work = new AgentWork(memberName, this::sendInterval);
    }

    /**
     * Joins the cluster these settings name as an agent called {@code memberName}; {@code onCoordinatorLost} runs
     * each time the coordinator it answered leaves the view.
     */
    public static Agent join(ClusterSettings settings, String memberName, Runnable onCoordinatorLost)
            throws Exception {
        return join(settings, memberName, onCoordinatorLost, System::nanoTime);
    }

    /** As {@link #join(ClusterSettings, String, Runnable)}, on this monotonic clock (a test's, set apart). */
    static Agent join(ClusterSettings settings, String memberName, Runnable onCoordinatorLost, LongSupplier clock)
            throws Exception {
        Agent a = new Agent(settings, memberName, onCoordinatorLost, clock);
        a.connect();
        return a;
    }

    /** What this agent does at the instant the coordinator's start barrier names (it must return quickly). */
    public void onStart(Runnable action) {
        this.startAction = action;
    }

    /** Where this agent's part of a phase comes from when the coordinator asks for it. */
    public void partSource(Supplier<AgentPart> source) {
        this.part = source;
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
        toCoordinator(Wire.Kind.STATUS, status(), System.Logger.Level.WARNING, "this agent is " + next.label());
    }

    /** Sends a one-way message to the coordinator, if there is one; a failure is logged, saying {@code what}. */
    private void toCoordinator(Wire.Kind kind, Object body, System.Logger.Level level, String what) {
        Address c = coordinator.get();
        if (c != null) {
            try {
                dispatcher.sendMessage(new BytesMessage(c, Wire.request(kind, body)), RequestOptions.ASYNC());
            } catch (Exception e) {
                LOG.log(level, "cannot tell the coordinator {0}: {1}", what, e.toString());
            }
        }
    }

    /**
     * Sends an interval of the clients' timeline to the coordinator, one way, for its live timeline; a lost one costs
     * that view an interval, never the result.
     */
    private void sendInterval(int measuredIndex, TimelineInterval interval, String rtt) {
        toCoordinator(Wire.Kind.INTERVAL, new Wire.Interval(measuredIndex, interval, rtt), System.Logger.Level.DEBUG,
                "an interval");
    }

    private AgentStatus status() {
        return new AgentStatus(sequence.getAndIncrement(), facts, state.get());
    }

    @Override
    protected Object answer(Message request) throws Exception {
        long received = clock.getAsLong();
        return switch (Wire.kind(request)) {
            case STATUS_REQUEST -> {
                Address from = request.getSrc();
                if (!from.equals(coordinator.getAndSet(from))) {
                    LOG.log(System.Logger.Level.INFO, "coordinator {0} found", name(from));
                }
                yield Wire.reply(status());
            }
            case PROBE -> {
                fromCoordinator(request);
                yield Wire.reply(new Wire.ProbeAnswer(received, clock.getAsLong()));
            }
            case PART_REQUEST -> {
                fromCoordinator(request);
                Supplier<AgentPart> source = part;
                if (source == null) {
                    throw new IllegalStateException("agent " + name(address()) + " has no part to send");
                }
                yield Wire.reply(source.get());
            }
            case SERVE -> {
                fromCoordinator(request);
                state(AgentState.BUSY);
                Target served = work.serve(Wire.body(request, RunSpec.class), settings.bindAddress());
                // a server without clients here takes part in the start barrier too: its figures span the phase
                takePart();
                yield Wire.reply(served);
            }
            case END -> {
                fromCoordinator(request);
                yield Wire.reply(new Wire.Ended(endWork()));
            }
            default -> throw new IllegalArgumentException("an agent does not answer " + Wire.kind(request));
        };
    }

    /** Whether a server or clients of a repetition still run here, whatever the state says. */
    boolean working() {
        return work.busy();
    }

    /** Begins this agent's share of the measured phase at the start barrier, and sends its part when asked. */
    private void takePart() {
        onStart(work::beginPhase);
        partSource(() -> work.part(Duration.ofMillis(Coordinator.PART_TIMEOUT_MILLIS - 1_000)));
    }

    /** Stops this agent's share of a repetition, if any; what it stopped, in words, or null. */
    private String endWork() {
        String stopped = work.end();
        onStart(() -> { });
        partSource(null);
        state(AgentState.IDLE);
        return stopped;
    }

    /**
     * Clients to prepare are answered once warmed up, from a thread of their own; a start barrier is answered once
     * this agent has started, from the thread that waited for the instant.
     */
    @Override
    protected void handle(Message request, Response response) throws Exception {
        if (Wire.kind(request) == Wire.Kind.PREPARE) {
            prepare(request, response);
            return;
        }
        if (Wire.kind(request) != Wire.Kind.START_AT) {
            super.handle(request, response);
            return;
        }
        long told = clock.getAsLong();
        fromCoordinator(request);
        long at = Wire.body(request, Wire.StartAt.class).agentNanos();
        Runnable action = startAction;
        Thread.ofPlatform().name("loopbench-start-barrier").daemon().start(() -> {
            try {
                long started = waitUntil(at);
                action.run();
                response.send(Wire.reply(new Wire.Started(started, told)), false);
            } catch (RuntimeException | InterruptedException e) {
                response.send(e, true);
            }
        });
    }

    /**
     * Starts the clients of a client-only spec, to be released by the start barrier and to give their part when
     * asked, and answers once they are warmed up and held (or with why not: also when the repetition's end stopped
     * them first).
     */
    private void prepare(Message request, Response response) {
        fromCoordinator(request);
        RunSpec spec = Wire.body(request, RunSpec.class);
        state(AgentState.BUSY);
        takePart();
        AgentWork.Preparing preparing;
        try {
            // here, not on the waiting thread: an end delivered after this request must find the clients to stop
            preparing = work.start(spec);
        } catch (RuntimeException e) {
            response.send(e, true);
            return;
        }
        Thread.ofPlatform().name("loopbench-prepare").daemon().start(() -> {
            try {
                preparing.awaitHeld();
                response.send(Wire.reply(new Wire.Prepared(name(address()))), false);
            } catch (RuntimeException | InterruptedException e) {
                response.send(e, true);
            }
        });
    }

    /**
     * Refuses a repetition's request from any member but the coordinator this agent answers to: a second service
     * joined to the same cluster by mistake must not start load here.
     */
    private void fromCoordinator(Message request) {
        if (!request.getSrc().equals(coordinator.get())) {
            throw new IllegalStateException("agent " + name(address()) + " takes " + Wire.kind(request)
                    + " from its coordinator only, not from " + name(request.getSrc()));
        }
    }

    /**
     * Waits for an instant of this agent's clock: sleeps to within {@value #SPIN_NANOS} ns of it (a sleep may
     * overshoot by the timer's slack), then spins; returns the clock's reading on waking, the actual start.
     */
    private long waitUntil(long at) throws InterruptedException {
        long left;
        while ((left = at - clock.getAsLong()) > SPIN_NANOS) {
            Thread.sleep(Duration.ofNanos(left - SPIN_NANOS));
        }
        long now;
        while ((now = clock.getAsLong()) < at) {
            Thread.onSpinWait();
        }
        return now;
    }

    /** Stops this agent's share of a repetition, if any, then leaves the cluster. */
    @Override
    public void close() {
        work.end();
        super.close();
    }

    @Override
    protected void viewAccepted(View view) {
        Address c = coordinator.get();
        if (c != null && !view.containsMember(c) && coordinator.compareAndSet(c, null)) {
            LOG.log(System.Logger.Level.WARNING, "coordinator {0} lost (view {1})", name(c), view);
            // Stops this agent's load by itself: nobody is left to collect it, and it must not disturb the next run.
            Thread.ofPlatform().name("loopbench-coordinator-lost").daemon().start(() -> {
                String stopped = endWork();
                if (stopped != null) {
                    LOG.log(System.Logger.Level.WARNING, "stopped {0}: its coordinator is lost", stopped);
                }
                onCoordinatorLost.run();
            });
        }
    }
}
