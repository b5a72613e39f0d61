package io.loopbench.reports;

import io.loopbench.engine.Checks;
import io.loopbench.engine.EchoPairSetup;
import io.loopbench.engine.JvmActivity;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.ResourceUse;
import io.loopbench.engine.RoundTripTimes;
import io.loopbench.engine.Summary;
import io.loopbench.engine.Throughput;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.offload.OffloadUse;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.GcActivity;
import io.loopbench.engine.process.MemoryUsage;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.verdicts.VerdictRule;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report's offload section: one group for cases that differ only by where the server's work runs, a row per
 * offload and pool size with its throughput, p99, the work's peaks and the messages in flight by Little's law.
 */
class OffloadSectionTest {

    private static final RunSpec LOAD = RunSpec.builder().clients(16).window(1).blockingMicros(1000).build();

    /** A passed second at this rate whose mean RTT keeps 16 in flight, with these peaks. */
    private static RepetitionResult rep(int index, double rate, double p99Us, int busy, int queue) {
        long n = Math.round(rate);
        double meanUs = 16 / rate * 1e6;
        return new RepetitionResult(index, true, null, null,
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, n, n, rate, rate * 2 * 1024 / (1 << 20)),
                new RoundTripTimes(new Latency(LatencyMode.MESSAGE, n, meanUs, meanUs, meanUs, p99Us, p99Us, p99Us,
                        meanUs), null, null),
                new ResourceUse(new CpuUsage(0.1, 1.0, 10), new MemoryUsage(100L << 20, 120L << 20), new OffloadUse(busy * 0.9, busy, Math.min(busy, 16), queue / 4.0, queue)),
                new JvmActivity(ReportFixtures.QUIET, new GcActivity(0, 0)), new Checks(null, null, null, null, null, List.of(),
                List.of()), null, null, null);
    }

    private static CaseResult kase(RunSpec spec, double rate, double p99Us, int busy, int queue) {
        List<RepetitionResult> reps = List.of(rep(1, rate, p99Us, busy, queue), rep(2, rate * 1.01, p99Us, busy,
                queue + 1), rep(3, rate * 0.99, p99Us, busy, queue));
        return new CaseResult(spec, Transport.EPOLL, Summary.of(reps), reps, null);
    }

    @Test
    void casesThatDifferByOffloadShareAGroupWithARowEachInPoolOrder() {
        List<CaseResult> cases = List.of(
                kase(LOAD, 990, 17_000, 1, 0),
                kase(LOAD.toBuilder().offload(Offload.VIRTUAL_THREADS).build(), 15_500, 1_400, 16, 2),
                kase(LOAD.toBuilder().offload(Offload.EXECUTOR).offloadThreads(16).build(), 15_000, 1_500, 16, 3),
                kase(LOAD.toBuilder().offload(Offload.EXECUTOR).offloadThreads(4).build(), 3_900, 4_400, 4, 12));

        String md = ReportRenderer.markdown(ReportRulesTest.source("o", cases), "charts/", VerdictRule.DEFAULT);

        assertThat(CaseGroups.of(cases)).hasSize(1);
        String section = md.substring(md.indexOf("## Where the server's work runs"), md.indexOf("## Charts"));
        assertThat(section).contains("TCP / 1024 B / 16 clients × window 1 / no added computation / 1,000 µs "
                + "blocking per echo").contains("Clients × window: 16 messages in flight.");
        List<String> rows = section.lines().filter(l -> l.startsWith("| shared 1")).toList();
        assertThat(rows).containsExactly(
                "| shared 1 | 990 [980, 1,000] | 16,161.62 | 17,000.00 | 0.9 / 1 | 0.0 / 1 | 16.0 |",
                "| shared 1 · executor 4 | 3,900 [3,861, 3,939] | 4,102.56 | 4,400.00 | 3.6 / 4 | 3.0 / 13 | 16.0 |",
                "| shared 1 · executor 16 | 15,000 [14,850, 15,150] | 1,066.67 | 1,500.00 | 14.4 / 16 | 0.8 / 4 | 16.0 |",
                "| shared 1 · virtual threads | 15,500 [15,345, 15,655] | 1,032.26 | 1,400.00 | 14.4 / 16 | 0.5 / 3 | 16.0 |");
    }

    @Test
    void aReportWithoutOffloadsHasNoSuchSection() {
        String md = ReportRenderer.markdown(ReportRulesTest.source("n", List.of(kase(LOAD, 990, 17_000, 1, 0))),
                "charts/", VerdictRule.DEFAULT);

        assertThat(md).doesNotContain("## Where the server's work runs");
    }
}
