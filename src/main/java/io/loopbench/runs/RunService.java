package io.loopbench.runs;

import io.loopbench.cluster.Coordinator;
import io.loopbench.cluster.Placement;
import io.loopbench.engine.Failure;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.timeline.TimelineInterval;
import io.loopbench.jobs.JobQueue;
import io.loopbench.jobs.QueuedService;
import io.loopbench.jobs.RunExceptions;
import io.loopbench.jobs.RunStatus;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.system.SystemInfo;
import io.loopbench.worker.RepetitionTime;
import io.loopbench.worker.WorkerAotCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;

import java.net.InetAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Accepts runs and queues them on the {@link JobQueue}, whose one runner thread executes every measurement in
 * arrival order, so that measurements never overlap. Each repetition runs in a forked worker JVM or in-process.
 * Queueing, cancellation, recovery on start and storage before announcement are {@link QueuedService}'s.
 */
public class RunService extends QueuedService<RunRecord> {

    private static final Logger log = LoggerFactory.getLogger(RunService.class);

    private static final String INTERRUPTED = "the service stopped while this run was running; ";

    private final RunsProperties properties;
    private final List<RunListener> listeners;
    private final ForkedWorker worker;
    private final SystemInfo system = SystemInfo.current();
    private final RunPolicy policy;
    private final LiveTimelines live;

    public RunService(RunStore store, RunsProperties properties, ObjectMapper json, List<RunListener> listeners,
                      JobQueue jobs) {
        this(store, properties, json, listeners, jobs, InetAddress::getAllByName, new LiveTimelines());
    }

    public RunService(RunStore store, RunsProperties properties, ObjectMapper json, List<RunListener> listeners,
                      JobQueue jobs, RunPolicy.Resolver resolver) {
        this(store, properties, json, listeners, jobs, resolver, new LiveTimelines());
    }

    /** @param live where the running repetition's timeline is kept as its intervals close */
    public RunService(RunStore store, RunsProperties properties, ObjectMapper json, List<RunListener> listeners,
                      JobQueue jobs, RunPolicy.Resolver resolver, LiveTimelines live) {
        this(store, properties, json, listeners, jobs, resolver, live, null);
    }

    /** @param cluster the coordinator of the agents runs may be placed on, or null when clustering is off */
    public RunService(RunStore store, RunsProperties properties, ObjectMapper json, List<RunListener> listeners,
                      JobQueue jobs, RunPolicy.Resolver resolver, LiveTimelines live, Coordinator cluster) {
        super(store, jobs, "run", RunRecord::id, RunRecord::status, RunRecord::estimatedSeconds,
                RunRecord::createdAt);
        this.properties = properties;
        this.listeners = List.copyOf(listeners);
        RunsProperties.Worker w = properties.worker();
        this.worker = new ForkedWorker(w.jvmOptions(), w.graceSeconds(), w.aotCache()
                ? new WorkerAotCache(properties.dataDirectory().resolve("worker-aot"), w.jvmOptions(),
                        WorkerAotCache.TRAINING_SECONDS)
                : WorkerAotCache.off("loopbench.worker.aot-cache is false"));
        this.live = live;
        this.policy = new RunPolicy(properties, resolver, cluster);
    }

    /** What runs, matrices and echo servers may do here. */
    public RunPolicy policy() {
        return policy;
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
        List<Violation> violations = policy.ruleViolations(spec, isolation);
        if (placement != null) {
            violations.addAll(policy.placementViolations(spec, placement, true));
        }
        // resolved once: the run connects to the address checked here, whatever the name resolves to later
        Optional<RunPolicy.AddressCheck> target = policy.checkTarget(spec);
        target.map(RunPolicy.AddressCheck::violation).ifPresent(violations::add);
        String targetAddress = target.map(RunPolicy.AddressCheck::address)
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

    @Override
    protected RunRecord cancelledWhileQueued(RunRecord r) {
        return r.finished(RunStatus.CANCELLED, Instant.now(), null, "cancelled while queued");
    }

    @Override
    protected WorkerProcess worker(RunRecord r) {
        return r.worker();
    }

    @Override
    protected RunRecord failed(RunRecord r, Failure failure) {
        return r.finished(RunStatus.FAILED, Instant.now(), null, failure.message());
    }

    @Override
    protected RunRecord interrupted(RunRecord r) {
        return r.finished(RunStatus.INTERRUPTED, Instant.now(), null,
                INTERRUPTED + r.repetitions().size() + " repetition(s) had finished");
    }

    /**
     * Each repetition in turn, where the run says ({@link RepetitionExecutor}). Across hosts, an agent that left,
     * turned busy or moved outside the allow-list since the run was accepted fails the run before its next
     * repetition; a cancellation stops the repetition in its measured phase, or before or after it (not while the
     * agents warm up), and the agents' load with it. An unfinished repetition is not kept.
     */
    @Override
    protected void execute(String id) {
        RunControl control = new RunControl();
        RunRecord r = begin(id, control, x -> x.started(Instant.now(), Transports.resolve(x.spec())));
        if (r == null) {
            return;
        }
        Optional<String> refused = policy.targetRefused(r.spec().target(), r.targetAddress());
        if (refused.isPresent()) {
            end(id, x -> x.finished(RunStatus.FAILED, Instant.now(), null, refused.get()));
            return;
        }
        RepetitionExecutor executor = r.placement() != null
                ? RepetitionExecutor.acrossHosts(policy.cluster().orElseThrow(), r.placement(), control)
                : RepetitionExecutor.on(r.isolation(), worker, control, this::stopRequested);
        List<StepRunner.Step> steps = new ArrayList<>();
        for (int i = 1; i <= r.spec().repetitions(); i++) {
            steps.add(new StepRunner.Step(0, i, r.executedSpec()));
        }
        Failure failure;
        try {
            failure = StepRunner.run("Run " + id, steps, step -> executor, this::stopRequested, new StepRunner.Sink() {
                @Override
                public Failure before(StepRunner.Step step, int number) {
                    if (r.placement() != null) {
                        // not whether idle: the agents' word that the last repetition's end made them idle may still
                        // be on its way, and this run is what made them busy
                        List<Violation> now = policy.placementViolations(r.spec(), r.placement(), false);
                        if (!now.isEmpty()) {
                            return new Failure.PlacementLost("placement", now.stream().map(Violation::message)
                                    .collect(Collectors.joining("; ")));
                        }
                    }
                    live.started(id, step.repetition());
                    progress(id, step.repetition(), r.placement() != null ? "across hosts" : "starting");
                    return null;
                }

                @Override
                public RepetitionExecutor.StepListener listener(StepRunner.Step step) {
                    return new RepetitionExecutor.StepListener() {
                        @Override
                        public void phase(String phase) {
                            progress(id, step.repetition(), phase);
                        }

                        @Override
                        public void interval(TimelineInterval interval) {
                            live.add(id, step.repetition(), interval);
                        }

                        @Override
                        public void worker(WorkerProcess process) {
                            update(id, x -> x.withWorker(process));
                        }
                    };
                }

                @Override
                public Failure finished(StepRunner.Step step, RepetitionOutcome done) {
                    update(id, x -> x.withRepetition(done));
                    return null;
                }
            });
        } finally {
            live.ended(id);
        }
        Failure stoppedEarly = failure;
        end(id, x -> judge(x, stoppedEarly));
    }

    /** The run's outcome; {@code failure} is an error that stopped it early, if any. */
    private RunRecord judge(RunRecord r, Failure failure) {
        boolean stopped = stopRequested();
        MeasurementResult m = Measurement.result(r.spec(), r.transport(), r.repetitions(), stopped);
        if (stopped) {
            RunStatus status = stoppedStatus();
            return r.finished(status, Instant.now(), null, status == RunStatus.INTERRUPTED
                    ? INTERRUPTED + r.repetitions().size() + " repetition(s) had finished" : m.error());
        }
        if (failure != null) {
            return r.finished(RunStatus.FAILED, Instant.now(), null, failure.message());
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

    /** Seconds a run of {@code spec} is planned to take: its repetitions as {@link RepetitionTime} plans each. */
    public static double estimate(RunSpec spec, Isolation isolation) {
        return spec.repetitions() * RepetitionTime.seconds(spec, isolation == Isolation.FORKED);
    }
}
