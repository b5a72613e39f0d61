package io.loopbench.reports;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.Execution;
import io.loopbench.verdicts.Difference;
import io.loopbench.verdicts.VerdictRule;
import io.loopbench.verdicts.Verdicts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A matched comparison of executions, as arknet's dimensions report does: cases that differ only by execution are
 * paired repetition by repetition (repetition r of one with repetition r of the other, which ran back to back in a
 * matrix, in an order alternated between repetitions), and each ratio other ÷ baseline is estimated over the pairs
 * with its 95 % interval and decided by the {@link VerdictRule} (Wilcoxon's signed-rank test on the per-pair log
 * ratios; the three ratios of one execution against its baseline decided as one family, Holm). Matching repetitions
 * rather than medians cancels the drift that both executions of a repetition share. Stateless.
 */
public final class ExecutionComparisons {

    private ExecutionComparisons() {
    }

    /**
     * One execution of a case against the baseline execution of the same case.
     *
     * @param caseTitle       the case without its execution: conditions and IO profile
     * @param execution       the execution compared
     * @param baseline        the first listed execution the case has
     * @param repetitions     repetitions each of the two cases should have
     * @param pairs           how many repetition indexes both cases succeeded at (and used some CPU time, without
     *                        which the CPU ratios are undefined): the ratios are over these
     * @param pairsWithWarnings of those pairs, how many have a repetition that carries warnings (not JIT-quiet,
     *                          window not kept full, warm-up capped): their ratios are doubtful
     * @param throughput      ratio of round trips/s; null without pairs
     * @param cpu             ratio of process CPU (% of one logical CPU); null without pairs
     * @param cpuPerRoundTrip ratio of CPU seconds per round trip; null without pairs
     */
    public record ExecutionRatios(String caseTitle, Execution execution, Execution baseline, int repetitions,
                                  int pairs, int pairsWithWarnings, Difference throughput, Difference cpu,
                                  Difference cpuPerRoundTrip) {
    }

    /**
     * Every execution of a matrix against its baseline, case by case.
     *
     * @param matrixId   the matrix
     * @param executions the matrix's executions as listed; the first is the baseline (where a case lacks it, as
     *                   sharded cases lack virtual-threads, the next listed that the case has)
     * @param cases      per case and execution other than the baseline, in the matrix's case order; empty when the
     *                   matrix has one execution
     */
    public record ExecutionComparison(String matrixId, List<Execution> executions, List<ExecutionRatios> cases) {
    }

    public static ExecutionComparison of(ReportSource source, VerdictRule rule) {
        return new ExecutionComparison(source.id(), source.executions(),
                of(source.cases(), source.executions(), rule));
    }

    /**
     * @param cases      cases in any order; those without a counterpart of another execution are left out
     * @param executions the listed order of executions, which chooses the baseline
     */
    public static List<ExecutionRatios> of(List<CaseResult> cases, List<Execution> executions, VerdictRule rule) {
        Map<String, List<CaseResult>> byCase = new LinkedHashMap<>();
        for (CaseResult c : cases) {
            byCase.computeIfAbsent(c.pairKey(), k -> new ArrayList<>()).add(c);
        }
        List<ExecutionRatios> out = new ArrayList<>();
        for (List<CaseResult> group : byCase.values()) {
            List<CaseResult> listed = group.stream()
                    .sorted(Comparator.comparingInt(c -> executions.indexOf(c.spec().execution()))).toList();
            CaseResult baseline = listed.getFirst();
            for (CaseResult other : listed.subList(1, listed.size())) {
                out.add(ratios(baseline, other, rule));
            }
        }
        return out;
    }

    private static ExecutionRatios ratios(CaseResult baseline, CaseResult other, VerdictRule rule) {
        List<RepetitionResult[]> pairs = baseline.matchedWith(other, ExecutionComparisons::hasCpuPerMessage);
        List<Difference> ratios = pairs.isEmpty() ? null : Verdicts.family(List.of(
                Comparisons.paired(pairs, rep -> rep.throughput().roundTripsPerSecond(), rule),
                Comparisons.paired(pairs, r -> r.resources().cpu().percent(), rule),
                Comparisons.paired(pairs, r -> r.resources().cpu().seconds() / r.throughput().messages(), rule)), rule);
        return new ExecutionRatios(baseline.pairTitle(), other.spec().execution(), baseline.spec().execution(),
                baseline.spec().repetitions(), pairs.size(),
                (int) pairs.stream().filter(p -> !p[0].checks().warnings().isEmpty()
                        || !p[1].checks().warnings().isEmpty()).count(),
                ratios == null ? null : ratios.get(0), ratios == null ? null : ratios.get(1),
                ratios == null ? null : ratios.get(2));
    }

    private static boolean hasCpuPerMessage(RepetitionResult r) {
        return r.ok() && r.throughput().messages() > 0 && r.resources().cpu().seconds() > 0;
    }
}
