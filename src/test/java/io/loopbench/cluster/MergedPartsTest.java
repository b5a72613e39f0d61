package io.loopbench.cluster;

import io.loopbench.engine.Fairness;
import io.loopbench.engine.StampGap;
import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The merge of agents' parts is the histogram of the union of their RTTs, and the sum of their counters; their
 * clients' fairness merges to that of every client at once, and their JIT to the sum, quiet only where each was.
 */
class MergedPartsTest {

    static PhaseCounts counts(long messages, String firstError) {
        return new PhaseCounts(messages + 1, messages, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, firstError);
    }

    @Test
    void mergedEqualsTheHistogramOfEveryValueAnyPartRecorded() {
        Random random = new Random(15);
        Histogram union = LatencyHistograms.create();
        String[] names = {"c-agent", "a-agent", "b-agent"};
        long[] scales = {20_000, 80_000, 3_000_000}; // three very different hosts
        List<AgentPart> parts = new java.util.ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            Histogram h = LatencyHistograms.create();
            int n = 10_000 * (i + 1);
            for (int k = 0; k < n; k++) {
                long rtt = (long) (scales[i] * (1 + random.nextExponential()));
                LatencyHistograms.record(h, rtt);
                LatencyHistograms.record(union, rtt);
            }
            parts.add(new AgentPart(names[i], 1, 1.0, counts(n, i == 1 ? null : "error of " + names[i]),
                    LatencyHistograms.encode(h), null, null, null, null, null, null, null, null, null, null, null, null, null, null));
        }
        MergedParts merged = MergedParts.of(parts, LatencyMode.MESSAGE);

        Histogram m = LatencyHistograms.decode(merged.latencyHistogram());
        assertThat(m).isEqualTo(union);
        assertThat(m.getTotalCount()).isEqualTo(60_000);
        assertThat(merged.latency()).isEqualTo(LatencyHistograms.latency(LatencyMode.MESSAGE, union));
        // the merged p99 is the union's, far from any average of the parts' p99s
        assertThat(merged.latency().p99Us()).isEqualTo(union.getValueAtPercentile(99) / 1000.0);
        assertThat(merged.counts().messages()).isEqualTo(60_000);
        assertThat(merged.counts().messagesSent()).isEqualTo(60_003);
        assertThat(merged.counts().orderErrors()).isEqualTo(3);
        assertThat(merged.counts().lostMessages()).isEqualTo(6);
        assertThat(merged.counts().firstError()).isEqualTo("error of b-agent");
        assertThat(merged.parts()).extracting(AgentPart::member).containsExactly("a-agent", "b-agent", "c-agent");
    }

    @Test
    void fairnessOverEveryAgentsClientsIsExactlyThatOfAllOfThem() {
        long[] onA = {900, 1_000, 1_100};
        long[] onB = {50, 4_000};
        List<AgentPart> parts = List.of(withClients("agent-a", onA), withClients("agent-b", onB),
                new AgentPart("agent-s", 0, 1.0, PhaseCounts.NONE, LatencyHistograms.encode(LatencyHistograms.create()),
                        null, null, null, null, null, null, null, null, null, null, null, null, null, null));

        Fairness merged = MergedParts.fairness(parts);

        // Jain's index of the five clients at once: (Σx)² / (n Σx²)
        double sum = 7_050;
        double squares = 900.0 * 900 + 1_000.0 * 1_000 + 1_100.0 * 1_100 + 50.0 * 50 + 4_000.0 * 4_000;
        assertThat(merged.clients()).isEqualTo(5);
        assertThat(merged.minMessages()).isEqualTo(50);
        assertThat(merged.maxMessages()).isEqualTo(4_000);
        assertThat(merged.jainIndex()).isCloseTo(sum * sum / (5 * squares), within(1e-12));
    }

    @Test
    void theJitOfSeveralAgentsIsQuietOnlyWhereEveryOneWas() {
        JitActivity quiet = new JitActivity(2, 0, 0.4, true, List.of("compiled tier 3: a::b"), 1L, 0L, 0L,
                0.001);
        JitActivity busy = new JitActivity(30, 1, 90, false, List.of("deoptimized (unstable_if): c::d"), 20L,
                3L, 1L, 0.06);
        AgentPart a = part("agent-a", quiet);
        AgentPart b = part("agent-b", busy);

        JitActivity both = MergedParts.jit(List.of(a, b));

        assertThat(both.quiet()).isFalse();
        assertThat(both.compilations()).isEqualTo(32);
        assertThat(both.deoptimizations()).isEqualTo(1);
        assertThat(both.compileMillis()).isCloseTo(90.4, within(1e-9));
        assertThat(both).extracting(JitActivity::pathCompilations, JitActivity::pathOptimizations,
                JitActivity::pathDeoptimizations, JitActivity::compileCpuShare).containsExactly(21L, 3L, 1L, 0.06);
        assertThat(both.examples()).containsExactly("agent-a: compiled tier 3: a::b",
                "agent-b: deoptimized (unstable_if): c::d");
        assertThat(MergedParts.jit(List.of(a, part("agent-c", quiet))).quiet()).isTrue();
    }

    @Test
    void thePlacedRunsStampGapIsTheWorstClientAgentsAndUnknownWhereOneSentNone() {
        StampGap small = new StampGap(5_000, 1.0, 4.0, 0.02);
        StampGap large = new StampGap(4_000, 3.0, 9.0, 0.12);
        AgentPart server = new AgentPart("agent-s", 0, 1.0, PhaseCounts.NONE,
                LatencyHistograms.encode(LatencyHistograms.create()), null, null, null, null, null, null, null, null,
                null, null, null, null, null, null);
        assertThat(MergedParts.stampGap(List.of(server, gap("agent-a", small), gap("agent-b", large))))
                .isSameAs(large);
        assertThat(MergedParts.stampGap(List.of(server, gap("agent-a", small), gap("agent-b", null)))).isNull();
        assertThat(MergedParts.stampGap(List.of(server))).isNull();
    }

    @Test
    void eachAgentsProfileIsKeptUnderItsOwnThreadsInTheMergedOne() {
        io.loopbench.engine.profile.CallTree t = new io.loopbench.engine.profile.CallTree();
        t.addCollapsed("[loopbench-epoll-0-1];io/netty/channel/unix/FileDescriptor.writeAddress 30\n"
                + "[loopbench-epoll-0-1];io/loopbench/engine/server/Work.run 10");
        io.loopbench.engine.profile.CpuProfile one = t.toProfile("async-profiler 4.2", "cpu", null, 5000);
        AgentPart server = profiled("agent-s", 0, one);
        AgentPart client = profiled("agent-a", 1, one);

        io.loopbench.engine.profile.CpuProfile merged = MergedParts.cpuProfile(List.of(server, client,
                profiled("agent-b", 1, null)));
        assertThat(merged.samples()).isEqualTo(80);
        assertThat(merged.threads()).extracting(io.loopbench.engine.profile.CpuProfile.ThreadShare::thread)
                .containsExactlyInAnyOrder("[agent-s: loopbench-epoll-0-1]", "[agent-a: loopbench-epoll-0-1]");
        assertThat(merged.share(io.loopbench.engine.profile.Layer.KERNEL_SEND)).isEqualTo(0.75);
        assertThat(MergedParts.cpuProfile(List.of(profiled("agent-b", 1, null)))).isNull();
    }

    private static AgentPart profiled(String name, int clients, io.loopbench.engine.profile.CpuProfile profile) {
        return new AgentPart(name, clients, 1.0, counts(clients, null),
                LatencyHistograms.encode(LatencyHistograms.create()), null, null, null, null, null, null, null, null,
                null, null, null, null, null, profile);
    }

    private static AgentPart gap(String name, StampGap stampGap) {
        return new AgentPart(name, 1, 1.0, counts(1, null), LatencyHistograms.encode(LatencyHistograms.create()),
                null, null, null, null, null, null, null, null, null, null, null, null, stampGap, null);
    }

    private static AgentPart withClients(String name, long[] perClient) {
        long sum = java.util.Arrays.stream(perClient).sum();
        double squares = java.util.Arrays.stream(perClient).mapToDouble(x -> (double) x * x).sum();
        return new AgentPart(name, perClient.length, 1.0, counts(sum, null),
                LatencyHistograms.encode(LatencyHistograms.create()), null, null, null, null, null,
                Fairness.of(perClient.length, java.util.Arrays.stream(perClient).min().orElseThrow(),
                        java.util.Arrays.stream(perClient).max().orElseThrow(), sum, squares), null, null, null, null, null, null, null, null);
    }

    private static AgentPart part(String name, JitActivity jit) {
        return new AgentPart(name, 1, 1.0, counts(1, null), LatencyHistograms.encode(LatencyHistograms.create()),
                null, null, null, null, jit, null, null, null, null, null, null, null, null, null);
    }
}
