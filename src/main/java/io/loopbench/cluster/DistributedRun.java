package io.loopbench.cluster;

import io.loopbench.engine.Checks;
import io.loopbench.engine.EchoPairSetup;
import io.loopbench.engine.ErrorCounts;
import io.loopbench.engine.Failure;
import io.loopbench.engine.Fairness;
import io.loopbench.engine.JvmActivity;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.ResourceUse;
import io.loopbench.engine.RoundTripTimes;
import io.loopbench.engine.RunControl;
import io.loopbench.engine.Throughput;
import io.loopbench.engine.WindowFill;
import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.spec.WindowMode;
import io.loopbench.engine.timeline.TimelineInterval;
import org.jgroups.Address;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Runs one repetition across hosts from the coordinator: the server's agent starts a standing echo server for the
 * spec's protocol; each client agent starts its share of clients against it (a client-only spec: the target is the
 * server's address) and warms them up, then holds them; the coordinator estimates each agent's clock offset,
 * releases every client agent's measured phase at one instant (the server's agent marks the same instant, from which
 * its process's figures count) and measures the client agents' skew, waits out the phase, collects each agent's
 * counters, encoded histogram and process figures and merges them exactly. Each RTT is measured by one client on its
 * own monotonic clock; only the start is coordinated across clocks.
 *
 * <p>Whatever happens, every agent still in the cluster is told the repetition ended, so that it stops its server and
 * clients; an agent that failed is named with what the repetition had done, and no load is moved to another.
 *
 * <p>Threads: the calling thread (the run's) blocks until the repetition ended; the coordinator's primitives use
 * their own threads. Stateless.
 */
public final class DistributedRun {

    /** Clock probes per client agent: the shortest of 16 round trips gives the offset. */
    static final int PROBES = 16;
    /** How far ahead the start instant is set: long enough for the start message to reach every agent. */
    static final Duration LEAD = Duration.ofMillis(200);
    static final Duration POLL = Duration.ofMillis(20);
    static final String CANCELLED = "cancelled";

    private DistributedRun() {
    }

    /**
     * Runs repetition {@code index} of {@code spec} (its clients count and target are the placement's) as placed.
     * A failure, an agent's included, gives a failed result naming why; it is never thrown.
     */
    public static DistributedRepetition repetition(Coordinator coordinator, Placement placement, RunSpec spec,
                                                   int index) {
        return repetition(coordinator, placement, spec, index, new RunControl());
    }

    /**
     * As {@link #repetition(Coordinator, Placement, RunSpec, int)}, cancellable through {@code control}: looked at
     * between the steps and every 20 ms while the agents prepare and of the measured phase, a cancellation stops
     * every agent's load (its warm-up included) and gives a failed result saying so.
     */
    public static DistributedRepetition repetition(Coordinator coordinator, Placement placement, RunSpec spec,
                                                   int index, RunControl control) {
        return repetition(coordinator, placement, spec, index, control, null);
    }

    /**
     * As {@link #repetition(Coordinator, Placement, RunSpec, int, RunControl)}, handing {@code live} each interval of
     * the measured phase while it runs, merged across the client agents once every one has sent it (on a JGroups
     * thread; without the GC and JIT marks, which the result's timeline has); null: no live timeline, and the
     * intervals the agents send are not merged.
     */
    public static DistributedRepetition repetition(Coordinator coordinator, Placement placement, RunSpec spec,
                                                   int index, RunControl control, Consumer<TimelineInterval> live) {
        Map<String, Address> members = new LinkedHashMap<>();
        for (String name : placement.agents()) {
            Optional<Address> a = coordinator.member(name);
            if (a.isEmpty()) {
                return failed(index, spec, new Failure.Cluster("agent " + name + " is not in the cluster"));
            }
            members.put(name, a.get());
        }
        List<String> done = new ArrayList<>();
        Set<Address> followed = new LinkedHashSet<>();
        placement.clients().stream().filter(c -> c.clients() > 0).forEach(c -> followed.add(members.get(c.agent())));
        try (Coordinator.Following ignored = live == null ? () -> { }
                : coordinator.followIntervals(followed, spec.timelineIntervalMillis(), live)) {
            Address serverAgent = members.get(placement.server());
            Target served = coordinator.serve(serverAgent, spec);
            // the address the coordinator reaches the agent at, which is the one a run's allow-list check saw
            String host = coordinator.ipOf(serverAgent);
            Target server = new Target(host != null ? host : served.host(), served.port());
            done.add("the echo server started on " + placement.server() + " at " + server);
            Map<Address, RunSpec> clients = new LinkedHashMap<>();
            for (Placement.ClientShare share : placement.clients()) {
                clients.put(members.get(share.agent()), spec.toBuilder().target(server.toString())
                        .clients(share.clients()).repetitions(1).build());
            }
            if (control.isCancelled()) {
                return failed(index, spec, new Failure.Cancelled(CANCELLED));
            }
            // a cancellation here returns at once; the end in finally stops the agents' warm-up
            if (!coordinator.prepare(clients, control::isCancelled) || control.isCancelled()) {
                return failed(index, spec, new Failure.Cancelled(CANCELLED));
            }
            done.add(placement.totalClients() + " clients on " + placement.clients().size()
                    + " agent(s) warmed up");
            // the server's agent takes part in the start barrier (when it runs no clients, only to mark the instant
            // its figures count from); the skew reported is the client agents'
            Set<Address> phase = new LinkedHashSet<>(clients.keySet());
            phase.add(serverAgent);
            StartReport all = coordinator.startTogether(coordinator.clockOffsets(phase, PROBES), LEAD);
            Set<String> clientAgents = new LinkedHashSet<>();
            placement.clients().forEach(c -> clientAgents.add(c.agent()));
            StartReport start = StartReport.of(all.starts().stream()
                    .filter(s -> clientAgents.contains(s.member())).toList());
            done.add(String.format(Locale.ROOT, "the start barrier released every client agent (skew %,.0f µs)",
                    start.skewNanos() / 1e3));
            // The agents measure on their own; their parts are ready once the phase and its drain are over.
            long end = System.nanoTime() + (long) (spec.seconds() * 1e9);
            for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
                if (control.isCancelled()) {
                    return failed(index, spec, new Failure.Cancelled(CANCELLED));
                }
                Thread.sleep(Duration.ofNanos(Math.min(left, POLL.toNanos())));
            }
            MergedParts merged = coordinator.collect(phase, mode(spec));
            return merged(index, spec, placement, server, merged, start);
        } catch (AgentFailure f) {
            return failed(index, spec, new Failure.Cluster(f.getMessage() + (done.isEmpty() ? ""
                    : "; done before: " + String.join(", ", done))));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(index, spec, new Failure.Cancelled("interrupted"));
        } finally {
            coordinator.end(members.values());
        }
    }

    private static LatencyMode mode(RunSpec spec) {
        return spec.windowMode() == WindowMode.BATCH && spec.window() > 1 ? LatencyMode.BATCH : LatencyMode.MESSAGE;
    }

    /** Repetition {@code index} of {@code spec}, failed before its measured phase. */
    public static DistributedRepetition failed(int index, RunSpec spec, Failure failure) {
        return new DistributedRepetition(RepetitionResult.failed(index, Transports.resolve(spec), spec.ioThreads(),
                failure), List.of(), null);
    }

    /**
     * The merged result: ok when every agent's part passed there and the summed counters have no error. The rate is
     * the sum of each client agent's own (its messages over its own phase's elapsed time), the elapsed time the
     * longest; CPU, GC and memory are every agent's process's, the server's included.
     */
    private static DistributedRepetition merged(int index, RunSpec spec, Placement placement, Target server,
                                                MergedParts merged, StartReport barrier) {
        Map<String, PhaseSpan> spans = new LinkedHashMap<>();
        merged.parts().stream().filter(p -> p.phase() != null).forEach(p -> spans.put(p.member(), p.phase()));
        StartReport start = barrier.measured(spans);
        Map<String, AgentStart> starts = new LinkedHashMap<>();
        start.starts().forEach(s -> starts.put(s.member(), s));
        List<AgentShare> rows = new ArrayList<>();
        double rate = 0;
        double elapsed = 0;
        Failure failure = null;
        for (AgentPart p : merged.parts()) {
            // the server's agent alone has no messages, and its span is not a client's phase
            boolean withClients = p.clients() > 0;
            Double r = null;
            Double p99 = null;
            if (withClients) {
                r = p.elapsedSeconds() > 0 ? p.counts().messages() / p.elapsedSeconds() : 0;
                rate += r;
                elapsed = Math.max(elapsed, p.elapsedSeconds());
                var latency = LatencyHistograms.latency(mode(spec), LatencyHistograms.decode(p.latencyHistogram()));
                p99 = latency.observations() > 0 ? latency.p99Us() : null;
            }
            rows.add(new AgentShare(p.member(), p.member().equals(placement.server()), p.clients(),
                    withClients ? p.counts().messages() : null, r, p99,
                    withClients && starts.containsKey(p.member()) ? startLate(starts.get(p.member())) : null,
                    p.failure() == null ? null : p.failure().message(), p.cpu() == null ? null : p.cpu().percent(),
                    p.memory() == null ? null : p.memory().peakRssBytes()));
            if (failure == null && p.failure() != null) {
                failure = new Failure.Agent(p.member(), p.failure());
            }
        }
        PhaseCounts c = merged.counts();
        ErrorCounts errors = new ErrorCounts(c.contentErrors(), c.orderErrors(), c.unexpectedMessages(),
                c.disconnectErrors(), c.lostMessages(), c.unfinishedMessages(), c.sendFailures(), c.exceptions(), 0);
        if (failure == null && errors.total() > 0) {
            failure = new Failure.ErrorCounters("measured phase", errors.describeNonZero(), null);
        } else if (failure == null && c.messages() == 0) {
            failure = new Failure.NoEcho("measured phase");
        }
        Fairness fairness = MergedParts.fairness(merged.parts());
        if (failure == null && fairness != null) {
            failure = MergedParts.starvedAcrossAgents(merged.parts(), fairness);
        }
        List<String> warnings = new ArrayList<>();
        merged.parts().forEach(p -> p.warnings().forEach(w -> warnings.add("agent " + p.member() + ": " + w)));
        List<String> notes = merged.parts().stream().flatMap(p -> p.notes().stream()
                .map(n -> "agent " + p.member() + ": " + n)).toList();
        String skew = start.warning(spec.seconds());
        if (skew != null) {
            warnings.add(skew);
        }
        WindowFill windowFill = null;
        if (spec.load() != LoadModel.OPEN && mode(spec) == LatencyMode.MESSAGE && c.messages() > 0) {
            // each agent's own holds on its own; this checks the merge: the summed rate against the pooled mean RTT
            windowFill = WindowFill.of(spec.clients(), spec.window(), rate, merged.latency().meanUs());
            if (!windowFill.holds()) {
                warnings.add("merged: " + windowFill.warning());
            }
        }
        // every client agent negotiated with the same server under the same spec: the first one's session stands
        TlsSession tls = merged.parts().stream().map(AgentPart::tls).filter(Objects::nonNull).findFirst()
                .orElse(null);
        RepetitionResult result = new RepetitionResult(index, failure == null, null, failure,
                new EchoPairSetup(Transports.resolve(spec), null, null, server.toString(), null, true,
                        spec.ioThreads(), null, null, null, tls),
                new Throughput(elapsed, c.messagesSent(), c.messages(), rate,
                        2.0 * spec.payloadBytes() * rate / (1 << 20)),
                new RoundTripTimes(merged.latency(), null, merged.latencyHistogram()),
                new ResourceUse(MergedParts.cpu(merged.parts(), elapsed), MergedParts.memory(merged.parts())),
                new JvmActivity(MergedParts.jit(merged.parts()), MergedParts.gc(merged.parts())),
                new Checks(errors, null, fairness, windowFill, MergedParts.stampGap(merged.parts()), warnings, notes),
                null, MergedTimeline.of(merged.parts()), MergedParts.cpuProfile(merged.parts()));
        return new DistributedRepetition(result, rows, start);
    }

    /** An agent's start: its measured phase's where known, else its barrier's release. */
    private static long startLate(AgentStart s) {
        Long phase = s.phaseLateNanos();
        return phase != null ? phase : s.lateNanos();
    }

}
