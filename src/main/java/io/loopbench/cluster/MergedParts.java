package io.loopbench.cluster;

import io.loopbench.engine.Failure;
import io.loopbench.engine.Fairness;
import io.loopbench.engine.StampGap;
import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.GcActivity;
import io.loopbench.engine.profile.ProfileSummary;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.process.MemoryUsage;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Several agents' parts of one measured phase as one: counters summed, histograms added bucket by bucket, so that the
 * percentiles are those of every RTT any agent recorded (not an average of the agents' percentiles); and each
 * agent's process figures (CPU, GC, memory, JIT) and fairness as the whole phase's.
 *
 * @param counts           every agent's counters summed (the first error: the first agent's, by name, that had one)
 * @param latencyHistogram every RTT, encoded as the parts are
 * @param latency          its figures
 * @param parts            each agent's part, by member name, as it came
 */
public record MergedParts(PhaseCounts counts, String latencyHistogram, Latency latency, List<AgentPart> parts) {

    /** The parts (at least one), merged exactly. */
    public static MergedParts of(List<AgentPart> parts, LatencyMode mode) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no parts to merge");
        }
        List<AgentPart> sorted = new ArrayList<>(parts);
        sorted.sort(Comparator.comparing(AgentPart::member));
        PhaseCounts counts = PhaseCounts.NONE;
        List<Histogram> histograms = new ArrayList<>();
        for (AgentPart p : sorted) {
            counts = counts.plus(p.counts());
            histograms.add(LatencyHistograms.decode(p.latencyHistogram()));
        }
        Histogram all = LatencyHistograms.merged(histograms);
        return new MergedParts(counts, LatencyHistograms.encode(all), LatencyHistograms.latency(mode, all),
                List.copyOf(sorted));
    }

    /**
     * The client agents' stamp gap where each sent one: the worst agent's (largest share of its RTT), whose own
     * warning, if any, is among the merged ones already; null where an agent with clients sent none.
     */
    static StampGap stampGap(List<AgentPart> parts) {
        return StampGap.worst(parts.stream().filter(p -> p.clients() > 0).map(AgentPart::stampGap).toList());
    }

    /**
     * Every client of every agent as one: counts, fewest and most added up exactly (each part's sum of squares comes
     * back from its Jain's index and its messages); null where a client agent has no fairness figures.
     */
    static Fairness fairness(List<AgentPart> parts) {
        List<AgentPart> withClients = parts.stream().filter(p -> p.clients() > 0).toList();
        if (withClients.isEmpty() || withClients.stream().anyMatch(p -> p.fairness() == null)) {
            return null;
        }
        int clients = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        double sum = 0;
        double squares = 0;
        for (AgentPart p : withClients) {
            Fairness f = p.fairness();
            clients += f.clients();
            min = Math.min(min, f.minMessages());
            max = Math.max(max, f.maxMessages());
            sum += p.counts().messages();
            squares += f.sumOfSquares(p.counts().messages());
        }
        return Fairness.of(clients, min, max, sum, squares);
    }

    /**
     * Each agent judges its own clients' fairness; across agents, one agent's clients may still starve beside
     * another's (a slower host, a worse link): the same rule over every client, a tenth of the mean, naming the
     * agent whose client completed fewest. Null when none starved.
     */
    static Failure starvedAcrossAgents(List<AgentPart> parts, Fairness all) {
        double mean = (double) parts.stream().mapToLong(p -> p.counts().messages()).sum() / all.clients();
        if (all.minMessages() >= mean / 10) {
            return null;
        }
        AgentPart starved = parts.stream().filter(p -> p.fairness() != null && p.clients() > 0)
                .min(Comparator.comparingLong(p -> p.fairness().minMessages())).orElseThrow();
        return new Failure.Unfair(starved.member(), -1, all.minMessages(), mean, all.jainIndex());
    }

    /**
     * Every agent's JIT over its measured phase: counts and compile time added up, quiet only where every JVM was
     * (each judged on its own), the compilers' share of CPU the largest of any JVM's, the examples named by agent.
     */
    static JitActivity jit(List<AgentPart> parts) {
        if (parts.stream().anyMatch(p -> p.jit() == null)) {
            return null;
        }
        List<String> examples = parts.stream().flatMap(p -> p.jit().examples().stream()
                .map(e -> p.member() + ": " + e)).limit(10).toList();
        return new JitActivity(parts.stream().mapToLong(p -> p.jit().compilations()).sum(),
                parts.stream().mapToLong(p -> p.jit().deoptimizations()).sum(),
                parts.stream().mapToDouble(p -> p.jit().compileMillis()).sum(),
                parts.stream().allMatch(p -> p.jit().quiet()), examples,
                sum(parts, JitActivity::pathCompilations), sum(parts, JitActivity::pathOptimizations),
                sum(parts, JitActivity::pathDeoptimizations),
                parts.stream().allMatch(p -> p.jit().compileCpuShare() != null) ? parts.stream()
                        .mapToDouble(p -> p.jit().compileCpuShare()).max().orElseThrow() : null);
    }

    /** The agents' count added up; null where one JVM's record lacks it. */
    static Long sum(List<AgentPart> parts, Function<JitActivity, Long> count) {
        return parts.stream().allMatch(p -> count.apply(p.jit()) != null)
                ? parts.stream().mapToLong(p -> count.apply(p.jit())).sum() : null;
    }

    /**
     * Every agent's process's CPU added up, the server's agent's included (100 % = one logical CPU, on any of them),
     * over the longest client phase: the cost of both ends, as a run on one host counts both peers in its process. A
     * server-only agent's CPU spans the start instant to the collection of the parts, which the clients' phase and
     * drain fill to within a poll and a message's way. Null where an agent had no figures (its part failed, and so
     * does the repetition).
     */
    static CpuUsage cpu(List<AgentPart> parts, double elapsed) {
        if (parts.stream().anyMatch(p -> p.cpu() == null)) {
            return null;
        }
        double seconds = parts.stream().mapToDouble(p -> p.cpu().seconds()).sum();
        return new CpuUsage(seconds, elapsed, elapsed > 0 ? seconds / elapsed * 100 : 0);
    }

    /** Every agent's process's garbage collections added up, the server's agent's included. */
    /**
     * Every agent's CPU profile in one tree, each thread's frame named {@code [agent: thread]} so that each agent's
     * threads stay apart; layers count every agent's process, as the merged CPU figure does. Null when no agent
     * profiled.
     */
    static CpuProfile cpuProfile(List<AgentPart> parts) {
        List<AgentPart> profiled = parts.stream().filter(p -> p.cpuProfile() != null).toList();
        if (profiled.isEmpty()) {
            return null;
        }
        return ProfileSummary.merged(profiled.stream().map(AgentPart::cpuProfile).toList(),
                profiled.stream().map(p -> p.member() + ": ").toList());
    }

    static GcActivity gc(List<AgentPart> parts) {
        return new GcActivity(parts.stream().mapToLong(p -> p.gc() == null ? 0 : p.gc().collections()).sum(),
                parts.stream().mapToLong(p -> p.gc() == null ? 0 : p.gc().collectionMillis()).sum());
    }

    /**
     * Every agent's process's resident memory added up, the server's agent's included; unknown (null) where any
     * agent's is.
     */
    static MemoryUsage memory(List<AgentPart> parts) {
        boolean known = parts.stream().allMatch(p -> p.memory() != null && p.memory().rssBytes() != null
                && p.memory().peakRssBytes() != null);
        return known ? new MemoryUsage(parts.stream().mapToLong(p -> p.memory().rssBytes()).sum(),
                parts.stream().mapToLong(p -> p.memory().peakRssBytes()).sum()) : new MemoryUsage(null, null);
    }
}
