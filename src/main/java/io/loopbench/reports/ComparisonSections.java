package io.loopbench.reports;

import io.loopbench.verdicts.Difference;
import io.loopbench.verdicts.VerdictRule;

import java.util.List;

/**
 * A report's matched comparisons: executions against the baseline execution, and each protocol against TCP and
 * against itself without TLS, each with its interval and verdict. Stateless.
 */
final class ComparisonSections {

    private ComparisonSections() {
    }

    /** The matched comparison of executions, when the source has cases that differ only by execution. */
    static void executionsMatched(StringBuilder md, ReportSource s, VerdictRule rule) {
        List<ExecutionComparisons.ExecutionRatios> rows = ExecutionComparisons.of(s.cases(), s.executions(), rule);
        if (rows.isEmpty()) {
            return;
        }
        md.append("## Executions, matched\n\n");
        md.append("Each ratio is an execution's figure ÷ the baseline execution's (the first listed) in the same "
                + "repetition, the two having run back to back in an order that alternated between repetitions, "
                + "over the repetitions both passed: the estimate, its 95 % interval and the verdict (the three "
                + "ratios of a row are one family); pairs with a repetition that carries warnings are counted beside "
                + "the pairs.\n\n");
        md.append("| Case | Execution vs baseline | Pairs | Throughput ratio | CPU ratio | CPU/round-trip ratio |\n");
        md.append("| --- | --- | --- | --- | --- | --- |\n");
        for (ExecutionComparisons.ExecutionRatios r : rows) {
            md.append("| ").append(Format.text(r.caseTitle())).append(" | ").append(r.execution().label())
                    .append(" vs ").append(r.baseline().label()).append(" | ").append(r.pairs()).append(" of ")
                    .append(r.repetitions()).append(r.pairsWithWarnings() == 0 ? ""
                            : " (" + r.pairsWithWarnings() + " with warnings)")
                    .append(" | ").append(ratio(r.throughput())).append(" | ")
                    .append(ratio(r.cpu())).append(" | ").append(ratio(r.cpuPerRoundTrip())).append(" |\n");
        }
        md.append('\n');
    }

    /** Each protocol against TCP and each TLS protocol against its plaintext, when the source has both sides. */
    static void protocolCosts(StringBuilder md, ReportSource s, VerdictRule rule) {
        List<ProtocolCosts.ProtocolCost> rows = ProtocolCosts.of(s.cases(), rule);
        if (rows.isEmpty()) {
            return;
        }
        md.append("## Protocol cost\n\n");
        md.append("Each protocol against TCP, and each TLS protocol against the same protocol without TLS (the TLS "
                + "cost), in cases that differ only by protocol: protocol ÷ baseline, matched repetition by "
                + "repetition, with the interval and the verdict (one profile's costs are one family). For "
                + "reference, arknet published at "
                + "1024 B / 16 clients × window 16 / 1 context, 1 thread (Standalone Asio): websocket 0.70, tcps "
                + "0.57, wss 0.42, http 0.53, https 0.41 of TCP's round trips/s; TLS cost tcps ÷ tcp 0.57, wss ÷ "
                + "websocket 0.60, https ÷ http 0.78.\n\n");
        md.append("| Case | Protocol | Against | Round trips/s ratio | p99 ratio | Notes |\n");
        md.append("| --- | --- | --- | --- | --- | --- |\n");
        for (ProtocolCosts.ProtocolCost r : rows) {
            md.append("| ").append(Format.text(r.profile())).append(" | ").append(Format.text(r.protocol()))
                    .append(" | ").append(r.baseline()).append(r.tlsCost() ? " (TLS cost)" : "").append(" |");
            Comparisons.CaseComparison c = r.comparison();
            if (c == null) {
                md.append(" | | ").append(Format.text(r.failure())).append(" |\n");
                continue;
            }
            md.append(' ').append(Format.text(c.throughput().words())).append(" | ")
                    .append(Format.text(c.p99().words())).append(" | ")
                    .append(c.warnings().isEmpty() ? "" : c.warnings().size()
                            + (c.warnings().size() == 1 ? " warning" : " warnings") + " on its figures")
                    .append(c.cpuProfile() == null ? "" : (c.warnings().isEmpty() ? "" : "; ") + "CPU profiles: "
                            + Format.text(c.cpuProfile().words()))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static String ratio(Difference r) {
        return r == null ? "no pair" : Format.text(r.words());
    }
}
