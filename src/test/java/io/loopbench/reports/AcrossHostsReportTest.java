package io.loopbench.reports;

import io.loopbench.verdicts.VerdictRule;
import io.loopbench.cluster.AgentGroup;
import io.loopbench.cluster.AgentShare;
import io.loopbench.cluster.AgentStart;
import io.loopbench.cluster.ClockOffset;
import io.loopbench.cluster.Placement;
import io.loopbench.cluster.PhaseSpan;
import io.loopbench.cluster.StartReport;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.jobs.RunStatus;
import io.loopbench.matrices.MatrixRecord;
import io.loopbench.matrices.MatrixSpec;
import io.loopbench.runs.HostsRepetition;
import io.loopbench.runs.Isolation;
import io.loopbench.runs.RunRecord;
import io.loopbench.system.SystemInfo;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run across hosts reports a per-agent table per repetition, with the measured start skew, its agents' names as
 * text; a run on one host has no such section; a matrix's cases across hosts each have a section naming their agent
 * group and placement.
 */
class AcrossHostsReportTest {

    private static RunRecord run(List<HostsRepetition> hosts) {
        RunSpec spec = RunSpec.builder().clients(3).repetitions(1).build();
        return new RunRecord(RunRecord.SCHEMA_VERSION, "r1", RunStatus.FAILED, Isolation.FORKED, spec, null, 1,
                Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, null, null, List.of(), null, false, "failed",
                SystemInfo.current(), null, List.of(), null,
                hosts.isEmpty() ? null : new Placement("agent-a", List.of(new Placement.ClientShare("agent-a", 1),
                        new Placement.ClientShare("agent|b", 2))), hosts);
    }

    @Test
    void eachRepetitionHasATableOfItsAgentsAndTheStartSkew() {
        ClockOffset offset = new ClockOffset(0, 40_000, 16);
        StartReport start = new StartReport(List.of(new AgentStart("agent-a", offset, 10_000, 150_000_000L,
                        new PhaseSpan(2_000, 1_000_122_000L)),
                new AgentStart("agent|b", offset, 130_000, 150_000_000L,
                        new PhaseSpan(2_000, 1_000_052_000L))), 120_000, 80_000, 50_000L, 1_000_000_000L);
        String md = ReportRenderer.markdown(ReportSources.of(run(List.of(new HostsRepetition(1, List.of(
                new AgentShare("agent-a", true, 1, 1_000L, 2_000.0, 55.5, 10_000L, null, 42.5, 300L << 20),
                new AgentShare("agent|b", false, 2, 3_000L, 6_000.0, 77.25, 130_000L, "unfair: x", null, null)), start),
                new HostsRepetition(2, List.of(), null)))), "", VerdictRule.DEFAULT);

        assertThat(md).contains("## Across hosts", "### Repetition 1",
                "Measured start skew: 120.00 µs (± 80.00 µs); stop skew 50.00 µs; every client agent in its "
                        + "measured phase together for 1.000 s.",
                "| agent-a | server, clients | 1 | 1,000 | 2,000 | 55.50 | 10.00 |  | 42.5 | 300.0 |",
                "| agent\\|b | clients | 2 | 3,000 | 6,000 | 77.25 | 130.00 | unfair: x |  |  |",
                "### Repetition 2", "Failed before its measured phase");
        assertThat(ReportRenderer.markdown(ReportSources.of(run(List.of())), "", VerdictRule.DEFAULT)).doesNotContain("Across hosts");
    }

    @Test
    void aMatrixAcrossHostsHasASectionPerCaseNamingItsAgentGroupAndPlacement() {
        RunSpec spec = RunSpec.builder().clients(3).repetitions(1).build();
        Placement placement = new AgentGroup("agent-c", List.of("agent-c", "agent-d")).placement(3);
        MatrixRecord.Case ran = new MatrixRecord.Case(2, spec, null, List.of(), null, "failed", 1, placement,
                List.of(new HostsRepetition(1, List.of(new AgentShare("agent-c", true, 2, 10L, 5.0, 1.0, 0L, null, null, null),
                        new AgentShare("agent-d", false, 1, 4L, 2.0, 1.0, 0L, null, null, null)), null)));
        MatrixRecord.Case onThisHost = new MatrixRecord.Case(1, spec, null, List.of(), null, null, null, null,
                null);
        MatrixRecord m = new MatrixRecord(MatrixRecord.SCHEMA_VERSION, "m1", RunStatus.FAILED,
                new MatrixSpec(null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                        null, null, null, null, null, null, null, null, null, null, null, null, null, null).effective(), 1, Instant.EPOCH, Instant.EPOCH,
                Instant.EPOCH, null, List.of(onThisHost, ran), false, "failed", SystemInfo.current(), null, null);

        String md = ReportRenderer.markdown(ReportSources.of(m), "", VerdictRule.DEFAULT);

        assertThat(md).contains("## Across hosts",
                "### Case 2 — agent group 1: server agent-c, clients agent-c × 2, agent-d × 1",
                "#### Repetition 1", "| agent-d | clients | 1 | 4 | 2 |").doesNotContain("### Case 1 ");
    }
}
