package io.loopbench.cluster;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.blocks.RequestOptions;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.timeline.TimelineInterval;
import org.jgroups.util.Rsp;
import org.jgroups.util.RspList;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The service's member of the cluster: it lists the agents ({@link #agents()}, kept by its {@link AgentDirectory}).
 * For a repetition across
 * hosts it has the primitives: estimate each agent's clock offset ({@link #clockOffsets}), start agents at one instant
 * and measure the skew ({@link #startTogether}), and collect and merge their parts ({@link #collect}); each names the
 * agent that failed it ({@link AgentFailure}).
 *
 * <p>Threads: JGroups' threads deliver views, answers and statuses; {@link #agents()} may be called from any
 * thread. The primitives block their calling thread (one repetition's) until every agent answered or failed (the preparation
 * also until the repetition is cancelled); probes run on virtual threads of their own.
 */
public final class Coordinator extends ClusterMember {

    private static final System.Logger LOG = System.getLogger(Coordinator.class.getName());
    static final long PROBE_TIMEOUT_MILLIS = 2_000;
    /** How long past the start instant an agent has to say it started. */
    static final long START_TIMEOUT_MILLIS = 5_000;
    static final long PART_TIMEOUT_MILLIS = 10_000;
    static final long SERVE_TIMEOUT_MILLIS = 10_000;
    /** Long enough for an agent to stop its clients ({@link AgentWork#CLOSE_WAIT}) and its server. */
    static final long END_TIMEOUT_MILLIS = 10_000;
    /** How often a wait for the agents' warm-up looks whether the repetition was cancelled. */
    static final long PREPARE_POLL_MILLIS = 20;

    private final MemberFacts facts = MemberFacts.current(MemberRole.COORDINATOR);
    private final AgentDirectory directory = new AgentDirectory(this);
    /** Each client agent's live timeline merge, while a repetition follows it. */
    private final Map<Address, MergedTimeline.Live> following = new ConcurrentHashMap<>();

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
        return directory.agents();
    }

    /** The member of this name in the current view, if any. */
    public Optional<Address> member(String memberName) {
        return members().stream().filter(m -> memberName.equals(name(m))).findFirst();
    }

    /**
     * Each agent's clock offset, from {@code probes} round trips to it (the agents probed at once, each one's probes
     * one after another).
     *
     * @throws AgentFailure naming the first agent (by name) that did not answer a probe
     */
    public Map<Address, ClockOffset> clockOffsets(Collection<Address> agents, int probes) {
        Map<Address, Future<ClockOffset>> pending = new LinkedHashMap<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Address a : agents) {
                pending.put(a, threads.submit(() -> probe(a, probes)));
            }
            Map<Address, ClockOffset> offsets = new LinkedHashMap<>();
            for (Map.Entry<Address, Future<ClockOffset>> e : pending.entrySet()) {
                offsets.put(e.getKey(), result(e.getKey(), "the clock probes", e.getValue(),
                        (long) probes * PROBE_TIMEOUT_MILLIS));
            }
            return offsets;
        }
    }

    private ClockOffset probe(Address agent, int probes) throws Exception {
        List<ClockProbe> done = new ArrayList<>(probes);
        for (int i = 0; i < probes; i++) {
            long sent = System.nanoTime();
            byte[] answer = dispatcher.sendMessage(new BytesMessage(agent, Wire.request(Wire.Kind.PROBE, null)),
                    RequestOptions.SYNC().timeout(PROBE_TIMEOUT_MILLIS));
            long answered = System.nanoTime();
            Wire.ProbeAnswer a = Wire.reply(answer, Wire.ProbeAnswer.class);
            done.add(new ClockProbe(sent, a.receivedNanos(), a.repliedNanos(), answered));
        }
        return ClockOffset.estimate(done);
    }

    /**
     * Starts the agents at one instant, {@code lead} from now on this coordinator's clock: each is told that
     * instant on its own clock (through its offset), waits for it and answers with when it actually started; each
     * start is placed back on this clock to measure the skew. An agent told too late (the lead shorter than the way
     * to it) starts at once, and its lateness shows it.
     *
     * @throws AgentFailure naming the first agent (by name) that did not answer within the lead and
     *                      {@value #START_TIMEOUT_MILLIS} ms more
     */
    public StartReport startTogether(Map<Address, ClockOffset> offsets, Duration lead) {
        long at = System.nanoTime() + lead.toNanos();
        Map<Address, CompletableFuture<byte[]>> pending = new LinkedHashMap<>();
        RequestOptions wait = RequestOptions.SYNC().timeout(lead.toMillis() + START_TIMEOUT_MILLIS);
        for (Map.Entry<Address, ClockOffset> e : offsets.entrySet()) {
            try {
                pending.put(e.getKey(), dispatcher.sendMessageWithFuture(new BytesMessage(e.getKey(),
                        Wire.request(Wire.Kind.START_AT, new Wire.StartAt(e.getValue().toAgent(at)))), wait));
            } catch (Exception x) {
                throw new AgentFailure(name(e.getKey()), "the start barrier", x.toString());
            }
        }
        List<AgentStart> starts = new ArrayList<>();
        for (Map.Entry<Address, CompletableFuture<byte[]>> e : pending.entrySet()) {
            ClockOffset offset = offsets.get(e.getKey());
            long left = Math.max(0, (at - System.nanoTime()) / 1_000_000) + START_TIMEOUT_MILLIS;
            Wire.Started started = Wire.reply(result(e.getKey(), "the start barrier", e.getValue(), left),
                    Wire.Started.class);
            starts.add(new AgentStart(name(e.getKey()), offset, offset.toCoordinator(started.agentNanos()) - at,
                    offset.toAgent(at) - started.toldNanos(), null));
        }
        starts.sort(Comparator.comparing(AgentStart::member));
        return StartReport.of(starts);
    }

    /**
     * Each agent's part of the phase just measured, merged exactly.
     *
     * @throws AgentFailure naming the first agent (by name) that was lost, did not answer within
     *                      {@value #PART_TIMEOUT_MILLIS} ms, or had no part
     */
    public MergedParts collect(Collection<Address> agents, LatencyMode mode) {
        RspList<byte[]> answers;
        try {
            answers = dispatcher.castMessage(agents, new BytesMessage(null,
                    Wire.request(Wire.Kind.PART_REQUEST, null)), RequestOptions.SYNC().timeout(PART_TIMEOUT_MILLIS));
        } catch (Exception e) {
            throw new AgentFailure(agents.stream().map(this::name).sorted().findFirst().orElse("?"),
                    "sending its part", e.toString());
        }
        List<AgentPart> parts = new ArrayList<>();
        for (Address a : agents.stream().sorted(Comparator.comparing(this::name)).toList()) {
            Rsp<byte[]> r = answers.get(a);
            String why = r == null ? "it was lost (no longer in the cluster)"
                    : r.wasSuspected() ? "it was lost"
                    : !r.wasReceived() ? "no answer within " + PART_TIMEOUT_MILLIS + " ms"
                    : r.hasException() ? r.getException().toString() : null;
            if (why != null) {
                throw new AgentFailure(name(a), "sending its part", why);
            }
            parts.add(Wire.reply(r.getValue(), AgentPart.class));
        }
        return MergedParts.of(parts, mode);
    }

    /**
     * Has an agent start a standing echo server for the spec's protocol (checking messages of its size).
     *
     * @return where the server listens: the agent's cluster bind address and the port the server took
     * @throws AgentFailure naming the agent, when it was lost, did not answer, or could not start the server
     */
    public Target serve(Address agent, RunSpec spec) {
        try {
            byte[] answer = dispatcher.sendMessage(new BytesMessage(agent, Wire.request(Wire.Kind.SERVE, spec)),
                    RequestOptions.SYNC().timeout(SERVE_TIMEOUT_MILLIS));
            return Wire.reply(answer, Target.class);
        } catch (Exception e) {
            throw new AgentFailure(name(agent), "starting the echo server", why(e));
        }
    }

    /**
     * Has each agent start its client-only spec's clients and warm them up, the agents at once; returns when every
     * one's clients are held before their measured phase. Looks every {@value #PREPARE_POLL_MILLIS} ms whether
     * {@code cancelled}: if so, it stops waiting and returns false at once, the agents' warm-up still going; the
     * caller then {@link #end ends} the repetition, which stops it (an agent's end reaches it after its prepare
     * request, both sent to it alone, in order).
     *
     * @return true once every agent's clients are held; false when cancelled first
     * @throws AgentFailure naming the first agent (in the map's order) that was lost, failed or did not answer in
     *                      time, as soon as it did
     */
    public boolean prepare(Map<Address, RunSpec> clients, BooleanSupplier cancelled) {
        Map<Address, CompletableFuture<byte[]>> pending = new LinkedHashMap<>();
        long longest = 0;
        try {
            for (Map.Entry<Address, RunSpec> e : clients.entrySet()) {
                long limit = AgentWork.SET_UP.toMillis() + (long) (e.getValue().warmupLimitSeconds() * 1000)
                        + START_TIMEOUT_MILLIS;
                longest = Math.max(longest, limit);
                try {
                    pending.put(e.getKey(), dispatcher.sendMessageWithFuture(new BytesMessage(e.getKey(),
                            Wire.request(Wire.Kind.PREPARE, e.getValue())), RequestOptions.SYNC().timeout(limit)));
                } catch (Exception x) {
                    throw new AgentFailure(name(e.getKey()), "preparing its clients", why(x));
                }
            }
            CompletableFuture<Void> all = CompletableFuture.allOf(pending.values().toArray(CompletableFuture[]::new));
            long deadline = System.nanoTime() + longest * 1_000_000;
            while (true) {
                for (Map.Entry<Address, CompletableFuture<byte[]>> e : pending.entrySet()) {
                    if (e.getValue().isCompletedExceptionally()) {
                        result(e.getKey(), "preparing its clients", e.getValue(), 0);
                    }
                }
                if (all.isDone()) {
                    return true;
                }
                if (cancelled.getAsBoolean()) {
                    return false;
                }
                if (System.nanoTime() - deadline > 0) {
                    Address late = pending.entrySet().stream().filter(e -> !e.getValue().isDone()).findFirst()
                            .orElseThrow().getKey();
                    throw new AgentFailure(name(late), "preparing its clients", "no answer within " + longest
                            + " ms");
                }
                try {
                    all.get(PREPARE_POLL_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // looked at above: an agent's failure, or still waiting
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    Address waited = pending.entrySet().stream().filter(f -> !f.getValue().isDone()).findFirst()
                            .map(Map.Entry::getKey).orElse(clients.keySet().iterator().next());
                    throw new AgentFailure(name(waited), "preparing its clients", "interrupted");
                }
            }
        } finally {
            // no longer waited for (cancelled, or another agent failed): their answers, when they come, are dropped
            pending.values().forEach(f -> f.cancel(false));
        }
    }

    /**
     * Tells each agent the repetition ended, so that it stops its server and clients, and waits for their answers;
     * an agent that cannot be told (lost) is passed over: it stops its load by itself when it loses this coordinator.
     *
     * @return what each agent that answered stopped, by name (only those that still ran something)
     */
    public Map<String, String> end(Collection<Address> agents) {
        Map<String, String> stopped = new LinkedHashMap<>();
        List<Address> present = agents.stream().filter(members()::contains).toList();
        if (present.isEmpty()) {
            return stopped;
        }
        try {
            // anycast, a unicast to each: only the repetition's agents are told, each in order after its prepare
            // request, so that an end sent while they prepare finds their clients started
            RspList<byte[]> answers = dispatcher.castMessage(present, new BytesMessage(null,
                    Wire.request(Wire.Kind.END, null)), RequestOptions.SYNC().timeout(END_TIMEOUT_MILLIS)
                    .anycasting(true));
            for (Address a : present) {
                Rsp<byte[]> r = answers.get(a);
                if (r != null && r.wasReceived() && !r.hasException()) {
                    String what = Wire.reply(r.getValue(), Wire.Ended.class).stopped();
                    if (what != null) {
                        stopped.put(name(a), what);
                    }
                } else {
                    LOG.log(System.Logger.Level.WARNING, "agent {0} did not confirm the end of the repetition: {1}",
                            name(a), r == null ? "no answer" : r.hasException() ? r.getException() : "no answer");
                }
            }
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "cannot tell the agents the repetition ended: {0}", e.toString());
        }
        return stopped;
    }

    @Override
    protected void viewAccepted(View view) {
        directory.viewChanged(view.getMembers());
    }

    /** A repetition's following of its client agents' intervals, until closed. */
    interface Following extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Hands {@code merged} each interval of these client agents' measured phase, merged, once every one of them has
     * sent it ({@link MergedTimeline.Live}), until the returned handle is closed; intervals of other agents, and of
     * the warm-up, go nowhere.
     */
    Following followIntervals(Set<Address> clientAgents, int intervalMillis, Consumer<TimelineInterval> merged) {
        MergedTimeline.Live live = new MergedTimeline.Live(clientAgents, intervalMillis, merged);
        clientAgents.forEach(a -> following.put(a, live));
        return () -> clientAgents.forEach(a -> following.remove(a, live));
    }

    @Override
    protected Object answer(Message request) {
        if (Wire.kind(request) == Wire.Kind.STATUS) {
            directory.record(request.getSrc(), Wire.body(request, AgentStatus.class));
            return null;
        }
        if (Wire.kind(request) == Wire.Kind.INTERVAL) {
            MergedTimeline.Live live = following.get(request.getSrc());
            if (live != null) {
                Wire.Interval i = Wire.body(request, Wire.Interval.class);
                if (i.measuredIndex() >= 0) {
                    live.add(request.getSrc(), i.measuredIndex(), i.interval(), LatencyHistograms.decode(i.rtt()));
                }
            }
            return null;
        }
        throw new IllegalArgumentException("a coordinator does not answer " + Wire.kind(request));
    }
}
