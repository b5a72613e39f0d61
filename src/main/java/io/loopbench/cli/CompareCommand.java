package io.loopbench.cli;

import io.loopbench.gate.GateReport;
import io.loopbench.gate.RegressionGate;
import io.loopbench.gate.ResultFiles;
import io.loopbench.reports.CaseResult;
import io.loopbench.verdicts.ConfidenceSequence;
import io.loopbench.verdicts.VerdictRule;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code compare}: the regression gate ({@link RegressionGate}) over two result files or stored run or matrix ids,
 * for a CI pipeline. Prints the gate's Markdown on stdout; exit code 0 passed, 1 a regression established, 2
 * undecided, 3 a wrong argument (a file it cannot read, a threshold out of range) or an unexpected error.
 */
// an unexpected exception must not read as exit code 1, "regressed"
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false, exitCodeOnInvalidInput = 3,
        exitCodeOnExecutionException = 3,
        description = {"Regression gate: did CANDIDATE regress against BASELINE by more than the threshold, in "
                + "throughput or p99, in any case?",
                "Exit code 0: passed (every case shown within the threshold); 1: a regression established; 2: "
                        + "undecided (too few repetitions, warnings, failed or unmatched cases); 3: a wrong argument."})
public final class CompareCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "BASELINE", description = "a result file (./loopbench measure's output, "
            + "several of them one after another, or a run or matrix as the service stores or answers it), or a "
            + "stored run or matrix id")
    String baseline;
    @Parameters(index = "1", paramLabel = "CANDIDATE", description = "the same, for the candidate")
    String candidate;
    @Option(names = "--threshold", paramLabel = "FRACTION", description = "the regression allowed, 0 … 1 "
            + "(default ${DEFAULT-VALUE}: 5 %%): a throughput ratio under 1 ÷ (1 + it) or a p99 ratio over 1 + it "
            + "is a regression", defaultValue = "0.05")
    double threshold;
    @Option(names = "--p99-threshold", paramLabel = "FRACTION", description = "the p99 regression allowed, 0 … 1 "
            + "(default ${DEFAULT-VALUE}: 10 %%, wider than throughput's since p99 spreads about twice as much "
            + "between JVMs)", defaultValue = "0.10")
    double p99Threshold;
    @Option(names = "--max-pairs", paramLabel = "N", description = "with --paired, in a loop that measures a pair "
            + "and asks again until decided: the pair budget, at least 2; the gate says whether another pair may "
            + "still decide")
    Integer maxPairs;
    @Option(names = "--alpha", paramLabel = "RATE", description = "the error rate of each conclusion, over 0 … 0.5 "
            + "(default ${DEFAULT-VALUE})", defaultValue = "0.05")
    double alpha;
    @Option(names = "--paired", description = "repetition i of each side ran back to back (baseline and candidate "
            + "measured alternately, one repetition at a time): the gate then tests the pairs, and a drift of the "
            + "machine falls on both sides of a pair alike")
    boolean paired;
    @Option(names = "--junit", paramLabel = "FILE", description = "also write the gate as JUnit XML there")
    Path junit;
    @Option(names = "--markdown", paramLabel = "FILE", description = "also write the gate's Markdown there")
    Path markdown;
    @Option(names = "--data-dir", paramLabel = "DIR", description = "the service's data directory, where an id is "
            + "looked up (<id>.json, matrices/<id>.json; default ${DEFAULT-VALUE})", defaultValue = "data")
    Path dataDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec commandSpec;

    @Override
    public Integer call() {
        PrintWriter err = commandSpec.commandLine().getErr();
        PrintWriter out = commandSpec.commandLine().getOut();
        VerdictRule rule;
        List<CaseResult> base;
        List<CaseResult> cand;
        try {
            if (!(threshold >= 0 && threshold <= 1)) {
                throw new IllegalArgumentException("--threshold: between 0 and 1 (a fraction: 0.05 is 5 %), not "
                        + threshold);
            }
            if (!(p99Threshold >= 0 && p99Threshold <= 1)) {
                throw new IllegalArgumentException("--p99-threshold: between 0 and 1 (a fraction: 0.10 is 10 %), "
                        + "not " + p99Threshold);
            }
            if (maxPairs != null && maxPairs < ConfidenceSequence.LEAST_ROUNDS) {
                throw new IllegalArgumentException("--max-pairs: at least " + ConfidenceSequence.LEAST_ROUNDS
                        + " (a decision needs " + ConfidenceSequence.LEAST_ROUNDS + " pairs), not " + maxPairs);
            }
            if (!(alpha > 0 && alpha <= 0.5)) {
                throw new IllegalArgumentException("--alpha: over 0 and at most 0.5, not " + alpha);
            }
            rule = new VerdictRule(alpha, threshold);
            base = ResultFiles.read(locate(baseline));
            cand = ResultFiles.read(locate(candidate));
        } catch (IllegalArgumentException e) {
            err.println("loopbench compare: " + e.getMessage());
            err.flush();
            return 3;
        }
        RegressionGate.Result result = RegressionGate.judge(baseline, base, candidate, cand, rule, p99Threshold,
                paired);
        String md = GateReport.markdown(result);
        if (maxPairs != null && result.verdict() == RegressionGate.Verdict.UNDECIDED) {
            md += result.pairs() < maxPairs
                    ? String.format(Locale.ROOT, "%nUndecided after %d of at most %d pairs: measure another pair and "
                    + "ask again.%n", result.pairs(), maxPairs)
                    : String.format(Locale.ROOT, "%nUndecided: the budget of %d pairs ended.%n", maxPairs);
        }
        try {
            if (junit != null) {
                Files.writeString(junit, GateReport.junitXml(result));
            }
            if (markdown != null) {
                Files.writeString(markdown, md);
            }
        } catch (IOException e) {
            err.println("loopbench compare: cannot write the report: " + e);
            err.flush();
            return 3;
        }
        out.print(md);
        out.flush();
        return result.exitCode();
    }

    /** A file as given, or a stored run's or matrix's file in the data directory. */
    private Path locate(String fileOrId) {
        Path file = Path.of(fileOrId);
        if (Files.isRegularFile(file)) {
            return file;
        }
        // the service stores a run as <id>.json in its data directory, a matrix in its matrices folder
        for (Path folder : List.of(dataDir, dataDir.resolve("matrices"))) {
            Path stored = folder.resolve(fileOrId + ".json");
            if (!fileOrId.contains("/") && Files.isRegularFile(stored)) {
                return stored;
            }
        }
        throw new IllegalArgumentException(fileOrId + ": neither a file nor a run or matrix id stored under "
                + dataDir);
    }
}
