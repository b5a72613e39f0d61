package io.loopbench.runs;

import io.loopbench.cluster.AgentState;
import io.loopbench.cluster.Coordinator;
import io.loopbench.cluster.DistributedRepetition;
import io.loopbench.cluster.DistributedRun;
import io.loopbench.cluster.KnownAgent;
import io.loopbench.cluster.Placement;
import io.loopbench.jobs.RunExceptions;
import io.loopbench.jobs.RunStatus;
import io.loopbench.engine.timeline.TimelineInterval;
import org.HdrHistogram.AbstractHistogram;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.ProgressListener;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.spec.Violation;
import io.loopbench.jobs.JobQueue;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.worker.WorkerEvent;
import io.loopbench.worker.WorkerTraining;
import io.loopbench.jobs.QueuedService;
import io.loopbench.system.SystemInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CancellationException;

/**
 * Accepts runs and queues them on the {@link JobQueue}, whose one runner thread executes every measurement in
 * arrival order, so that measurements never overlap. Each repetition runs in a forked worker JVM or in-process.
 * Queueing, cancellation, recovery on start and storage before announcement are {@link QueuedService}'s.
 */
public class RunService extends QueuedService<RunRecord> {

    private static final Logger log = LoggerFactory.getLogger(RunService.class);
    /** Seconds a repetition spends outside its phases (JVM start, set-up, drains, teardown), for estimates. */
    static final double FORKED_OVERHEAD_SECONDS = 1.5;
    static final double IN_PROCESS_OVERHEAD_SECONDS = 0.5;

    private static final String INTERRUPTED = "the service stopped while this run was running; ";

    private final RunsProperties properties;
    private final List<RunListener> listeners;
    private final ForkedWorker worker;
    private final SystemInfo system = SystemInfo.current();
    private final List<Cidr> allowedTargets;
    private final Resolver resolver;
    private final LiveTimelines live;
    private final Coordinator cluster;

    public RunService(RunStore store, RunsProperties properties, ObjectMapper json, List<RunListener> listeners,
                      JobQueue jobs) {
        this(store, properties, json, listeners, jobs, InetAddress::getAllByName, new LiveTimelines());
    }

    public RunService(RunStore store, RunsProperties properties, ObjectMapper json, List<RunListener> listeners,
                      JobQueue jobs, Resolver resolver) {
        this(store, properties, json, listeners, jobs, resolver, new LiveTimelines());
    }

    /** @param live where the running repetition's timeline is kept as its intervals close */
    public RunService(RunStore store, RunsProperties properties, ObjectMapper json, List<RunListener> listeners,
                      JobQueue jobs, Resolver resolver, LiveTimelines live) {
        this(store, properties, json, listeners, jobs, resolver, live, null);
    }

    /** @param cluster the coordinator of the agents runs may be placed on, or null when clustering is off */
    public RunService(RunStore store, RunsProperties properties, ObjectMapper json, List<RunListener> listeners,
                      JobQueue jobs, Resolver resolver, LiveTimelines live, Coordinator cluster) {
        super(store, jobs, "run", RunRecord::id, RunRecord::status, RunRecord::estimatedSeconds,
                RunRecord::createdAt);
        this.properties = properties;
        this.listeners = List.copyOf(listeners);
        RunsProperties.Worker w = properties.worker();
        this.worker = new ForkedWorker(w.jvmOptions(), w.graceSeconds(), w.aotCache()
                ? new WorkerAotCache(properties.dataDirectory().resolve("worker-aot"), w.jvmOptions(), json,
                        WorkerTraining.DEFAULT_SECONDS)
                : WorkerAotCache.off("loopbench.worker.aot-cache is false"));
        this.resolver = resolver;
        this.live = live;
        this.cluster = cluster;
        this.allowedTargets = properties.network().allowedCidrs().stream().map(text -> {
            try {
                return Cidr.parse(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("loopbench.network.allowed-cidrs: " + e.getMessage(), e);
            }
        }).toList();
    }

    /** The forked worker, which matrices use too, so that they share its AOT cache. */
    public ForkedWorker worker() {
        return worker;
    }

    public SystemInfo system() {
        return system;
    }

    public RunStore store() {
        return (RunStore) store;
    }

    /**
     * Validates and queues a run.
     *
     * @throws InvalidSpecException   listing every violated rule and limit; nothing is stored
     * @throws RunExceptions.QueueFull when the queue is full; nothing is stored
     */
    public RunRecord submit(RunSpec spec, Isolation isolation) {
        return submit(spec, isolation, null);
    }

    /**
     * Validates and queues a run; with a placement, a run across hosts: its clients are the placement's sum, it runs
     * on the agents (isolation does not apply) and needs clustering, known idle agents at allowed addresses, and no
     * target.
     *
     * @throws InvalidSpecException   listing every violated rule and limit; nothing is stored
     * @throws RunExceptions.QueueFull when the queue is full; nothing is stored
     */
    public RunRecord submit(RunSpec requested, Isolation isolation, Placement placement) {
        RunSpec spec = placement == null ? requested
                : requested.toBuilder().clients(placement.totalClients()).build();
        List<Violation> violations = ruleViolations(spec, isolation);
        if (placement != null) {
            violations.addAll(placementViolations(spec, placement, true));
        }
        // resolved once: the run connects to the address checked here, whatever the name resolves to later
        Optional<AddressCheck> target = checkTarget(spec);
        target.map(AddressCheck::violation).ifPresent(violations::add);
        String targetAddress = target.map(AddressCheck::address)
                .map(a -> new Target(a.getHostAddress(), Target.parse(spec.target()).orElseThrow().port()).toString())
                .orElse(null);
        if (!violations.isEmpty()) {
            throw new InvalidSpecException(violations);
        }
        RunRecord r = RunRecord.queued(UUID.randomUUID().toString(), spec, targetAddress, isolation,
                estimate(spec, isolation), Instant.now(), system, placement);
        enqueue(r);
        return r;
    }

    /**
     * Every rule the spec breaks here: {@link #ruleViolations} and whether its target is allowed.
     */
    public List<Violation> violations(RunSpec spec, Isolation isolation) {
        List<Violation> v = ruleViolations(spec, isolation);
        checkTarget(spec).map(AddressCheck::violation).ifPresent(v::add);
        return v;
    }

    /** The spec's target resolved once and checked against the allow-list; empty without a (valid) target. */
    private Optional<AddressCheck> checkTarget(RunSpec spec) {
        return Target.parse(spec.target()).map(t -> checkAddress("target", t.toString(), t.host()));
    }

    /**
     * The spec's own rules, this service's limits, whether its transport loads here and, in-process, whether this
     * JVM can carry its virtual threads.
     */
    private List<Violation> ruleViolations(RunSpec spec, Isolation isolation) {
        List<Violation> v = new ArrayList<>(spec.violations());
        if (isolation == Isolation.IN_PROCESS && VirtualThreads.violation(spec).isPresent()) {
            v.add(new Violation("isolation", isolation.label(), "forked with virtual-threads execution: the JDK sizes "
                    + "its virtual-thread scheduler once per JVM, and this service's does not have ioThreads = "
                    + spec.ioThreads() + " carriers (a forked worker is started with "
                    + String.join(" ", VirtualThreads.jvmOptions(spec.ioThreads())) + ")"));
        }
        RunsProperties.Limits limits = properties.limits();
        if (spec.phaseSeconds() > limits.maxSecondsPerRepetition()) {
            // the limit counts the longest warm-up: with auto warm-up its cap, named so the form marks that field
            String warmup = spec.warmupLimitSeconds() > spec.warmupSeconds() ? "warmupMaxSeconds" : "warmupSeconds";
            v.add(new Violation(warmup + "+seconds", String.valueOf(spec.phaseSeconds()),
                    "at most " + fmt(limits.maxSecondsPerRepetition())
                            + " (limit loopbench.limits.max-seconds-per-repetition)"));
        }
        if (spec.repetitions() > limits.maxRepetitions()) {
            v.add(new Violation("repetitions", String.valueOf(spec.repetitions()),
                    "at most " + limits.maxRepetitions() + " (limit loopbench.limits.max-repetitions)"));
        }
        if (spec.clients() > limits.maxClients()) {
            v.add(new Violation("clients", String.valueOf(spec.clients()),
                    "at most " + limits.maxClients() + " (limit loopbench.limits.max-clients)"));
        }
        if (!Transports.isAvailable(spec.transport())) {
            v.add(new Violation("transport", spec.transport().label(), "a transport that loads here ("
                    + spec.transport().label() + ": " + Transports.unavailabilityCause(spec.transport()) + ")"));
        }
        return v;
    }

    /**
     * What keeps a placement from running now: clustering off, a target besides it, a secure protocol without
     * certificates every agent has, or one of {@link #agentViolations}.
     */
    private List<Violation> placementViolations(RunSpec spec, Placement placement, boolean idle) {
        List<Violation> v = new ArrayList<>(placement.violations());
        if (cluster == null) {
            v.add(new Violation("placement", placement.server(), "no placement: clustering is off "
                    + "(loopbench.cluster.enabled)"));
            return v;
        }
        if (spec.target() != null) {
            v.add(new Violation("target", spec.target(), "none with a placement: the placement's server agent is "
                    + "the target"));
        }
        if (spec.protocol().secure() && spec.certsDirectory() == null) {
            v.add(new Violation("certsDirectory", "none", "with protocol " + spec.protocol().label() + " and a "
                    + "placement, a directory at that path on every agent, its server.pem for the server agent's "
                    + "address: the throw-away certificate is made per JVM, and only that JVM's clients trust it"));
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String name : placement.agents()) {
            fields.put(name, name.equals(placement.server()) ? "placement.server" : "placement.clients");
        }
        v.addAll(agentViolations(fields, idle));
        return v;
    }

    /** The cluster's coordinator, when clustering is on. */
    public Optional<Coordinator> cluster() {
        return Optional.ofNullable(cluster);
    }

    /**
     * What keeps these agents (each with the request field that named it) from carrying load now: clustering off,
     * an agent not in the cluster or, with {@code idle}, busy, or its address outside the allow-list (every agent's
     * address carries load: the server's receives it, each client agent's sends it).
     */
    public List<Violation> agentViolations(Map<String, String> fieldByAgent, boolean idle) {
        List<Violation> v = new ArrayList<>();
        if (cluster == null) {
            // the request's field for them all (agentGroups, not agentGroups[0].server): none of them can be had
            String field = fieldByAgent.values().stream().findFirst().map(f -> f.split("[.\\[]")[0])
                    .orElse("agents");
            v.add(new Violation(field, String.join(", ", fieldByAgent.keySet()), "agents in a cluster: clustering "
                    + "is off (loopbench.cluster.enabled)"));
            return v;
        }
        Map<String, KnownAgent> agents = new HashMap<>();
        cluster.agents().forEach(a -> agents.put(a.member(), a));
        fieldByAgent.forEach((name, field) -> {
            KnownAgent a = agents.get(name);
            if (a == null) {
                v.add(new Violation(field, name, "an agent in the cluster: " + (agents.isEmpty() ? "none is"
                        : String.join(", ", new TreeSet<>(agents.keySet())))));
            } else if (idle && a.state() != AgentState.IDLE) {
                v.add(new Violation(field, name, "an idle agent; " + name + " is " + a.state().label()));
            } else if (a.address() == null) {
                v.add(new Violation(field, name, "an agent whose address is known"));
            } else {
                Optional.ofNullable(checkAddress(field, name, a.address()).violation()).ifPresent(v::add);
            }
        });
        return v;
    }

    /** How host names are resolved: the system's resolver, or a test's. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /**
     * A host resolved once and checked: the address to use (its first), or why it may not be used.
     *
     * @param address   the address to use from now on, without resolving the name again; null with a violation
     * @param violation why not, or null
     */
    public record AddressCheck(InetAddress address, Violation violation) {
    }

    /**
     * Load may go only to loopback, or inside {@code loopbench.network.allowed-cidrs}: resolves {@code host} once and
     * gives its first address, or a violation of {@code field} unless every address it resolves to is allowed. The
     * caller uses the address, never the name again, so that a name cannot resolve elsewhere later (DNS rebinding).
     */
    public AddressCheck checkAddress(String field, String shown, String host) {
        try {
            InetAddress[] all = resolver.resolve(host);
            for (InetAddress a : all) {
                Optional<Violation> v = addressViolation(field, shown, host, a);
                if (v.isPresent()) {
                    return new AddressCheck(null, v.get());
                }
            }
            return all.length == 0 ? new AddressCheck(null, new Violation(field, shown, "a host that resolves"))
                    : new AddressCheck(all[0], null);
        } catch (UnknownHostException e) {
            return new AddressCheck(null, new Violation(field, shown, "a host that resolves; " + e.getMessage()));
        }
    }

    /** A violation of {@code field} unless the address is loopback or inside the current allow-list. */
    private Optional<Violation> addressViolation(String field, String shown, String host, InetAddress a) {
        if (a.isLoopbackAddress() || allowedTargets.stream().anyMatch(c -> c.contains(a))) {
            return Optional.empty();
        }
        String allowed = "a loopback address" + (allowedTargets.isEmpty()
                ? " (loopbench.network.allowed-cidrs is empty)"
                : " or one inside loopbench.network.allowed-cidrs " + properties.network().allowedCidrs());
        return Optional.of(new Violation(field, shown, allowed + "; " + host + " is " + a.getHostAddress()));
    }

    @Override
    protected RunRecord cancelledWhileQueued(RunRecord r) {
        return r.finished(RunStatus.CANCELLED, Instant.now(), null, "cancelled while queued");
    }

    @Override
    protected WorkerProcess worker(RunRecord r) {
        return r.worker();
    }

    @Override
    protected RunRecord failed(RunRecord r, String error) {
        return r.finished(RunStatus.FAILED, Instant.now(), null, error);
    }

    @Override
    protected RunRecord interrupted(RunRecord r) {
        return r.finished(RunStatus.INTERRUPTED, Instant.now(), null,
                INTERRUPTED + r.repetitions().size() + " repetition(s) had finished");
    }

    @Override
    protected void execute(String id) {
        RunControl control = new RunControl();
        RunRecord r = begin(id, control, x -> x.started(Instant.now(), Transports.resolve(x.spec())));
        if (r == null) {
            return;
        }
        if (r.placement() != null) {
            executeAcrossHosts(id, r, control);
            return;
        }
        Optional<String> refused = targetRefused(r);
        if (refused.isPresent()) {
            end(id, x -> x.finished(RunStatus.FAILED, Instant.now(), null, refused.get()));
            return;
        }
        String failure = null;
        try {
            for (int i = 1; i <= r.spec().repetitions() && !stopRequested(); i++) {
                live.started(id, i);
                progress(id, i, "starting");
                ForkedWorker.Outcome done = r.isolation() == Isolation.FORKED
                        ? forked(r, i) : inProcess(r, i, control);
                if (done == null || stopRequested()) {
                    break; // cancelled or stopping: an unfinished repetition is not kept
                }
                update(id, x -> x.withRepetition(done.repetition(), done.environment(), done.stderr()));
            }
        } catch (RuntimeException e) {
            log.error("Run {} failed unexpectedly", id, e);
            failure = "internal error: " + e;
        } finally {
            live.ended(id);
        }
        String stoppedEarly = failure;
        end(id, x -> judge(x, stoppedEarly));
    }

    /**
     * A run across hosts: each repetition on the placement's agents ({@link DistributedRun}), one after another; an
     * agent that left, turned busy or moved outside the allow-list since the run was accepted fails the run before
     * its next repetition. A cancellation stops the repetition in its measured phase, or before or after it (not
     * while the agents warm up), and the agents' load with it; the unfinished repetition is not kept.
     */
    private void executeAcrossHosts(String id, RunRecord r, RunControl control) {
        String failure = null;
        try {
            for (int i = 1; i <= r.spec().repetitions() && !stopRequested(); i++) {
                // not whether idle: the agents' word that the last repetition's end made them idle may still be
                // on its way, and this run is what made them busy
                List<Violation> now = placementViolations(r.spec(), r.placement(), false);
                if (!now.isEmpty()) {
                    failure = "the placement no longer holds: " + now.stream().map(Violation::message)
                            .collect(Collectors.joining("; "));
                    break;
                }
                progress(id, i, "across hosts");
                live.started(id, i);
                int repetition = i;
                DistributedRepetition done = DistributedRun.repetition(cluster, r.placement(), r.spec(), i, control,
                        interval -> live.add(id, repetition, interval));
                if (stopRequested()) {
                    break;
                }
                update(id, x -> x.withRepetitionAcrossHosts(done));
            }
        } catch (RuntimeException e) {
            log.error("Run {} across hosts failed unexpectedly", id, e);
            failure = "internal error: " + e;
        } finally {
            live.ended(id);
        }
        String stoppedEarly = failure;
        end(id, x -> judge(x, stoppedEarly));
    }

    /**
     * Why the run may no longer send load to the address its target was checked at: the allow-list may have changed
     * since (a restart with other settings) — checked by address, never by resolving the name again.
     */
    private Optional<String> targetRefused(RunRecord r) {
        if (r.targetAddress() == null) {
            return Optional.empty();
        }
        Target t = Target.parse(r.targetAddress()).orElseThrow();
        try {
            InetAddress a = InetAddress.getByName(t.host()); // an address literal: no lookup
            return addressViolation("target", r.spec().target(), t.host(), a)
                    .map(v -> "target " + r.spec().target() + " (" + r.targetAddress() + ") is no longer allowed: "
                            + v.allowed());
        } catch (UnknownHostException e) {
            return Optional.of("target address " + r.targetAddress() + " is not an address: " + e.getMessage());
        }
    }

    private ForkedWorker.Outcome forked(RunRecord r, int index) {
        return worker.run(r.executedSpec(), index, r.transport(),
                event -> {
                    switch (event) {
                        case WorkerEvent.Phase p -> progress(r.id(), index, p.phase());
                        case WorkerEvent.Interval i -> live.add(r.id(), index, i.interval());
                        case WorkerEvent.Result ignored -> { } // the outcome's
                    }
                },
                w -> update(r.id(), x -> x.withWorker(w)), this::stopRequested);
    }

    /** Runs one repetition in this JVM; null when it was cancelled. */
    private ForkedWorker.Outcome inProcess(RunRecord r, int index, RunControl control) {
        try {
            RepetitionResult result = Measurement.of(r.executedSpec()).control(control).progress(new ProgressListener() {
                @Override
                public void phaseStarted(int repetition, String phase, double seconds) {
                    progress(r.id(), index, phase);
                }

                @Override
                public void intervalRecorded(int repetition, TimelineInterval interval, AbstractHistogram rtt) {
                    live.add(r.id(), index, interval);
                }
            }).runRepetition(index);
            return new ForkedWorker.Outcome(result, Environment.current(), null);
        } catch (CancellationException e) {
            return null;
        }
    }

    /** The run's outcome; {@code failure} is an error that stopped it early, if any. */
    private RunRecord judge(RunRecord r, String failure) {
        boolean stopped = stopRequested();
        MeasurementResult m = Measurement.result(r.spec(), r.transport(), r.repetitions(), stopped);
        if (stopped) {
            RunStatus status = stoppedStatus();
            return r.finished(status, Instant.now(), null, status == RunStatus.INTERRUPTED
                    ? INTERRUPTED + r.repetitions().size() + " repetition(s) had finished" : m.error());
        }
        if (failure != null) {
            return r.finished(RunStatus.FAILED, Instant.now(), null, failure);
        }
        return r.finished(m.ok() ? RunStatus.SUCCEEDED : RunStatus.FAILED, Instant.now(), m.summary(), m.error());
    }

    private RunRecord progress(String id, int repetition, String phase) {
        return update(id, x -> x.status() != RunStatus.RUNNING ? x
                : x.withProgress(new RunProgress(repetition, x.spec().repetitions(), phase, 0, 0, null)));
    }

    @Override
    protected void announce(RunRecord r) {
        for (RunListener l : listeners) {
            try {
                l.changed(r.asOf(Instant.now()));
            } catch (RuntimeException e) {
                log.warn("Run listener {} failed", l, e);
            }
        }
    }

    public static double estimate(RunSpec spec, Isolation isolation) {
        double overhead = isolation == Isolation.FORKED ? FORKED_OVERHEAD_SECONDS : IN_PROCESS_OVERHEAD_SECONDS;
        return spec.repetitions() * (spec.phaseSeconds() + overhead);
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%s", d);
    }
}
