package io.loopbench.cluster;

import io.loopbench.engine.ErrorCounts;
import io.loopbench.engine.Failure;
import io.loopbench.engine.Fairness;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.StampGap;
import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.GcActivity;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.process.JvmEvents;
import io.loopbench.engine.process.MemoryUsage;
import io.loopbench.engine.process.ProcessMetrics;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.profile.CpuProfiler;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.timeline.Timeline;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What one agent's clients did in a measured phase, as it sends it to the coordinator; from the server's agent
 * without clients, its process's figures only (no clients, no counts, an empty histogram).
 *
 * @param member           the agent
 * @param clients          how many clients it ran
 * @param elapsedSeconds   its measured phase's wall time, drain and barrier included, on its own clock (the server's
 *                         agent alone: from the start instant to the coordinator's request for the parts)
 * @param counts           its clients' counters, summed
 * @param latencyHistogram its clients' RTTs, each on its own client's monotonic clock, as one HdrHistogram in
 *                         {@code LatencyHistograms.encode}'s form
 * @param failure          why its repetition failed there (validation, warm-up, fairness, set-up), or null
 * @param cpu              its process's CPU over its measured phase; null when it had no figures
 * @param gc               its garbage collections over its measured phase; null when it had no figures
 * @param memory           its process's resident memory at the phase's end; null when it had no figures
 * @param jit              what its JVM's JIT did over its measured phase; null when it had no figures
 * @param fairness         how evenly its clients shared the phase; null without clients or figures
 * @param warnings         what makes its figures doubtful there (JIT, window fill, warm-up capped), as its
 *                         repetition words them
 * @param notes            what its repetition notes without doubting its figures (e.g. JIT activity unknown)
 * @param tls              what its clients' TLS handshakes negotiated; null without TLS or clients
 * @param timeline         its clients' repetition over time (warm-up and measured phase, its process's marks); null
 *                         without clients or figures
 * @param intervalRtts     the RTTs of each of the timeline's measured intervals, in {@code LatencyHistograms.encode}'s
 *                         form, for the merged timeline's percentiles; empty without a timeline
 * @param phase            when its clients' measured phase began and stopped after its start barrier; null without
 *                         clients, for a part that failed before its phase, or from an agent that does not say
 * @param stampGap         its clients' gap from each message's send stamp to its hand-over to the transport; null
 *                         without clients or figures
 * @param cpuProfile       where its process's CPU time went over its measured phase (its spec's {@code profiling});
 *                         null when not profiled, or from an agent that does not say
 */
public record AgentPart(String member, int clients, double elapsedSeconds, PhaseCounts counts,
                        String latencyHistogram, Failure failure, CpuUsage cpu, GcActivity gc, MemoryUsage memory,
                        JitActivity jit, Fairness fairness, List<String> warnings, List<String> notes,
                        TlsSession tls,
                        Timeline timeline, List<String> intervalRtts, PhaseSpan phase,
                        StampGap stampGap, CpuProfile cpuProfile) {

    public AgentPart {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        notes = notes == null ? List.of() : List.copyOf(notes);
        intervalRtts = intervalRtts == null ? List.of() : List.copyOf(intervalRtts);
    }

    /**
     * A repetition's result as its part: the counters and the encoded histogram (an empty one without figures), and
     * its measured phase's span after the start barrier, where known.
     */
    static AgentPart of(String member, int clients, RepetitionResult r, List<String> intervalRtts, PhaseSpan span) {
        ErrorCounts e = r.checks().errors();
        PhaseCounts counts = e == null ? PhaseCounts.NONE : new PhaseCounts(r.throughput().messagesSent(),
                r.throughput().messages(),
                e.contentErrors(), e.orderErrors(), e.unexpectedMessages(), e.disconnectErrors(), e.lostMessages(),
                e.unfinishedMessages(), e.clientSendFailures(), e.exceptions() + e.drainTimeouts(),
                r.openLoad() == null ? 0 : r.openLoad().intendedMessages(),
                r.openLoad() == null ? 0 : r.openLoad().lateMessages(),
                r.openLoad() == null ? 0 : r.openLoad().droppedMessages(), null);
        String histogram = r.rtt().latencyHistogram() != null ? r.rtt().latencyHistogram()
                : LatencyHistograms.encode(LatencyHistograms.create());
        Double elapsed = r.throughput().elapsedSeconds();
        return new AgentPart(member, clients, elapsed == null ? 0 : elapsed, counts, histogram,
                r.ok() ? null : r.failure(), r.resources().cpu(), r.jvm().gc(), r.resources().memory(), r.jvm().jit(),
                r.checks().fairness(), r.checks().warnings(), r.checks().notes(), r.setup().tls(),
                r.timeline(), r.timeline() == null ? List.of() : intervalRtts, span, r.checks().stampGap(),
                r.cpuProfile());
    }

    /**
     * A server's part: no clients, no messages, an empty histogram; its process's CPU, collections and JIT from the
     * phase's start to now (the coordinator asks once the clients' phase is over, so it spans the same phase, to
     * within the clients' drain and the request's way here), its resident memory now, and the CPU profile that
     * {@code profiling} sampled since the phase began, when it did.
     */
    static AgentPart ofServer(String member, PhaseStart start, CpuProfiler.Session profiling) {
        long nanos = System.nanoTime() - start.nanos();
        long cpu = ProcessMetrics.cpuNanos();
        long[] gc = ProcessMetrics.gc();
        double seconds = nanos / 1e9;
        CpuUsage usage = cpu < 0 || start.cpuNanos() < 0 ? null
                : new CpuUsage((cpu - start.cpuNanos()) / 1e9, seconds, (cpu - start.cpuNanos()) / (double) nanos * 100);
        JvmEvents events = JvmEvents.get();
        boolean known = events.awaitEvents();
        JitActivity jit = events.activity(start.wall(), Instant.now(), JitActivity.capacityNanos(nanos));
        MemoryUsage memory = ProcessMetrics.memory();
        List<String> notes = new ArrayList<>();
        if (!known) {
            notes.add(JvmEvents.UNKNOWN_NOTE);
        }
        CpuProfile profile = null;
        if (profiling != null) {
            try {
                profiling.stop();
                profile = profiling.profile();
            } catch (IllegalStateException e) {
                notes.add("no CPU profile: " + e.getMessage());
            }
        }
        return new AgentPart(member, 0, seconds, PhaseCounts.NONE,
                LatencyHistograms.encode(LatencyHistograms.create()), null, usage,
                new GcActivity(gc[0] - start.gcCollections(), gc[1] - start.gcMillis()), memory, jit,
                null, jit.quiet() ? List.of() : List.of(jit.warning()), notes, null, null, null, null, null, profile);
    }
}
