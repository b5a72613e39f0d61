package io.loopbench.gate;

import io.loopbench.engine.spec.IoModel;
import io.loopbench.reports.CaseResult;
import io.loopbench.verdicts.VerdictRule;
import io.loopbench.engine.spec.Profiling;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

import static io.loopbench.gate.GateFixtures.SPEC;
import static io.loopbench.gate.GateFixtures.drawn;
import static io.loopbench.gate.GateFixtures.passed;
import static org.assertj.core.api.Assertions.assertThat;

class RegressionGateTest {

    private static final VerdictRule RULE = VerdictRule.DEFAULT;
    private static final double P99 = RegressionGate.DEFAULT_P99_THRESHOLD;
    private static final int TRIALS = 400;

    private static RegressionGate.Result gate(CaseResult baseline, CaseResult candidate) {
        return RegressionGate.judge("base", List.of(baseline), "cand", List.of(candidate), RULE, P99, false);
    }

    @Test
    void anAaComparisonNamesNoRegressionBeyondItsErrorRateAndUsuallyPasses() {
        SplittableRandom random = new SplittableRandom(11);
        int regressed = 0;
        int passed = 0;
        for (int t = 0; t < TRIALS; t++) {
            RegressionGate.Verdict v = gate(drawn(random, 30, 1e6, 400, 0.02), drawn(random, 30, 1e6, 400, 0.02))
                    .verdict();
            regressed += v == RegressionGate.Verdict.REGRESSED ? 1 : 0;
            passed += v == RegressionGate.Verdict.PASSED ? 1 : 0;
        }
        assertThat(regressed).as("A/A trials called regressed").isLessThanOrEqualTo(TRIALS / 20);
        // the intervals assume the machine's noise floor (TCP's), not the 2 % these draws have: 30 a side pass
        assertThat(passed).as("A/A trials passed, 30 repetitions a side").isGreaterThan(TRIALS * 9 / 10);
    }

    @Test
    void aCandidateExactlyAtTheThresholdIsCalledEitherWayAtMostAsOftenAsTheRuleAllows() {
        // throughput ratio 1 ÷ 1.05 exactly: both "regressed beyond" and "not regressed that far" are false claims
        SplittableRandom random = new SplittableRandom(23);
        int regressed = 0;
        int passed = 0;
        for (int t = 0; t < TRIALS; t++) {
            RegressionGate.Verdict v = gate(drawn(random, 8, 1e6, 400, 0.02),
                    drawn(random, 8, 1e6 / 1.05, 400, 0.02)).verdict();
            regressed += v == RegressionGate.Verdict.REGRESSED ? 1 : 0;
            passed += v == RegressionGate.Verdict.PASSED ? 1 : 0;
        }
        // at most alpha (5 %) each in expectation; the bound leaves room for the binomial spread of 400 trials
        assertThat(regressed).isLessThanOrEqualTo(TRIALS * 8 / 100);
        assertThat(passed).isLessThanOrEqualTo(TRIALS * 8 / 100);
    }

    @Test
    void aClearRegressionInThroughputOrInP99IsEstablishedAndNamed() {
        SplittableRandom random = new SplittableRandom(5);
        RegressionGate.Result slower = gate(drawn(random, 8, 1e6, 400, 0.02), drawn(random, 8, 0.8e6, 400, 0.02));
        assertThat(slower.verdict()).isEqualTo(RegressionGate.Verdict.REGRESSED);
        assertThat(slower.exitCode()).isEqualTo(1);
        RegressionGate.Check throughput = slower.cases().getFirst().checks().getFirst();
        assertThat(throughput.metric()).isEqualTo("throughput");
        assertThat(throughput.outcome().label()).isEqualTo("regressed");
        assertThat(throughput.words()).contains("regressed by more than 5 %");
        assertThat(throughput.difference().ratio()).isBetween(0.75, 0.85);

        RegressionGate.Result tail = gate(drawn(random, 24, 1e6, 400, 0.02), drawn(random, 24, 1e6, 600, 0.02));
        assertThat(tail.verdict()).isEqualTo(RegressionGate.Verdict.REGRESSED);
        assertThat(tail.cases().getFirst().checks().get(1).outcome().label()).isEqualTo("regressed");
        assertThat(tail.cases().getFirst().checks().getFirst().outcome().label()).isEqualTo("within");
    }

    @Test
    void anImprovementPasses() {
        SplittableRandom random = new SplittableRandom(7);
        RegressionGate.Result r = gate(drawn(random, 6, 1e6, 400, 0.02), drawn(random, 6, 1.3e6, 300, 0.02));
        assertThat(r.verdict()).isEqualTo(RegressionGate.Verdict.PASSED);
        assertThat(r.exitCode()).isZero();
        assertThat(r.reasons()).isEmpty();
    }

    @Test
    void oneRepetitionASideCannotDecideAndSaysSoButTwoOfAHalvingCan() {
        CaseResult b = passed(SPEC, new double[] {1e6}, new double[] {400}, 0);
        CaseResult c = passed(SPEC, new double[] {0.5e6}, new double[] {400}, 0);

        RegressionGate.Result r = gate(b, c);

        assertThat(r.verdict()).isEqualTo(RegressionGate.Verdict.UNDECIDED);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.reasons()).anySatisfy(reason -> assertThat(reason)
                .contains("too few repetitions (1 and 1; at least 2 a side)"));

        RegressionGate.Result two = RegressionGate.judge("b", List.of(passed(SPEC, new double[] {1e6, 1.01e6},
                new double[] {400, 401}, 0)), "c", List.of(passed(SPEC, new double[] {0.5e6, 0.51e6},
                new double[] {400, 401}, 0)), RULE, P99, true);
        assertThat(two.verdict()).as("paired, a halving shows in two pairs").isEqualTo(RegressionGate.Verdict.REGRESSED);
        assertThat(two.pairs()).isEqualTo(2);
    }

    @Test
    void repetitionsWithWarningsAreLeftOutAndTheCleanOnesDecide() {
        SplittableRandom random = new SplittableRandom(3);
        CaseResult b = drawn(random, 8, 1e6, 400, 0.02);
        double[] half = {5e5, 5e5, 5e5, 5e5, 5e5, 5e5, 5e5, 5e5};
        double[] p99s = {400, 400, 400, 400, 400, 400, 400, 400};

        RegressionGate.Result twoWarned = gate(b, passed(SPEC, half, p99s, 2));
        assertThat(twoWarned.verdict()).isEqualTo(RegressionGate.Verdict.REGRESSED);
        RegressionGate.Check throughput = twoWarned.cases().getFirst().checks().getFirst();
        assertThat(throughput.leftOut()).isEqualTo(2);
        assertThat(throughput.difference().candidateSize()).isEqualTo(6);
        assertThat(throughput.words()).endsWith("(2 repetitions left out: figures with warnings)");

        // every candidate repetition warned: nothing left to decide by, however regressed it looks
        RegressionGate.Result allWarned = gate(b, passed(SPEC, half, p99s, 8));
        assertThat(allWarned.verdict()).isEqualTo(RegressionGate.Verdict.UNDECIDED);
        assertThat(allWarned.cases().getFirst().checks()).allMatch(k -> k.outcome().label().equals("undecided"));

        // paired, a warned repetition takes its pair with it
        RegressionGate.Result paired = RegressionGate.judge("b", List.of(b), "c",
                List.of(passed(SPEC, half, p99s, 3)), RULE, P99, true);
        assertThat(paired.cases().getFirst().checks().getFirst().difference().baselineSize()).isEqualTo(5);
        assertThat(paired.cases().getFirst().checks().getFirst().words()).endsWith("(3 pairs left out: figures "
                + "with warnings)");
    }

    @Test
    void aCaseRecordedBeforeTheSelfChecksDecidesNothing() {
        SplittableRandom random = new SplittableRandom(4);
        double[] half = {5e5, 5e5, 5e5, 5e5, 5e5, 5e5, 5e5, 5e5};
        double[] p99s = {400, 400, 400, 400, 400, 400, 400, 400};

        RegressionGate.Result r = gate(drawn(random, 8, 1e6, 400, 0.02), passed(SPEC, half, p99s, 0, null));

        assertThat(r.verdict()).isEqualTo(RegressionGate.Verdict.UNDECIDED);
        assertThat(r.cases().getFirst().judged()).isFalse();
        assertThat(r.cases().getFirst().checks()).allMatch(k -> k.adjustedRegressionP() == null);
        assertThat(r.reasons()).anySatisfy(reason -> assertThat(reason).contains("recorded before the self-checks"));
    }

    @Test
    void aCaseProfiledOnOneSideOnlyDecidesNothing() {
        SplittableRandom random = new SplittableRandom(5);
        CaseResult base = drawn(random, 8, 1e6, 400, 0.02);
        CaseResult same = drawn(random, 8, 1e6, 400, 0.02);
        CaseResult profiled = new CaseResult(SPEC.toBuilder().profiling(Profiling.CPU).build(), same.transport(),
                same.summary(), same.repetitions(), null);

        RegressionGate.Result r = gate(base, profiled);

        assertThat(r.verdict()).isEqualTo(RegressionGate.Verdict.UNDECIDED);
        assertThat(r.cases().getFirst().judged()).isFalse();
        assertThat(r.reasons()).anySatisfy(reason -> assertThat(reason).endsWith("the candidate was profiled and the "
                + "baseline not: the profiler's cost (p99 most) is on one side only"));
        assertThat(gate(base, same).cases().getFirst().judged()).as("the same figures, alike").isTrue();
    }

    @Test
    void aFailedOrOneSidedCaseKeepsTheGateFromPassingButNotARegressionElsewhereFromShowing() {
        SplittableRandom random = new SplittableRandom(9);
        CaseResult failed = new CaseResult(SPEC.toBuilder().ioModel(IoModel.SHARDED).ioThreads(2).build(),
                null, null, List.of(), "repetition 1 failed: measured phase: lostMessages=3");
        CaseResult onlyHere = passed(SPEC.toBuilder().ioThreads(2).build(), new double[] {1, 1, 1},
                new double[] {1, 1, 1}, 0);
        CaseResult b = drawn(random, 8, 1e6, 400, 0.02);
        CaseResult bFailedSide = passed(failed.spec(), new double[] {1, 1, 1}, new double[] {1, 1, 1}, 0);

        RegressionGate.Result undecided = RegressionGate.judge("base", List.of(b, bFailedSide, onlyHere), "cand",
                List.of(drawn(random, 8, 1e6, 400, 0.02), failed), RULE, P99, false);
        assertThat(undecided.verdict()).isEqualTo(RegressionGate.Verdict.UNDECIDED);
        assertThat(undecided.failedCases()).singleElement().asString().contains("candidate failed: repetition 1");
        assertThat(undecided.unmatched()).singleElement().asString().startsWith("baseline: ");

        RegressionGate.Result regressed = RegressionGate.judge("base", List.of(b, bFailedSide), "cand",
                List.of(drawn(random, 8, 0.7e6, 400, 0.02), failed), RULE, P99, false);
        assertThat(regressed.verdict()).isEqualTo(RegressionGate.Verdict.REGRESSED);
        assertThat(regressed.reasons()).isNotEmpty();
    }

    /**
     * A machine that slows by 20 % over the time both sides take, every repetition also ±1 %: measured one side after
     * the other, the candidate ran on the slower machine; measured alternately, each pair ran at one speed.
     */
    private static CaseResult[] drifting(SplittableRandom random, int n, double candidateRatio, boolean alternated) {
        double[] bRates = new double[n];
        double[] cRates = new double[n];
        double[] p99s = new double[n];
        for (int i = 0; i < n; i++) {
            double pairSpeed = 1 - 0.2 * i / (n - 1);
            double bSpeed = alternated ? pairSpeed : 1 - 0.1 * i / (n - 1);
            double cSpeed = alternated ? pairSpeed : 0.9 - 0.1 * i / (n - 1);
            bRates[i] = 1e6 * bSpeed * Math.exp(0.01 * random.nextGaussian());
            cRates[i] = 1e6 * candidateRatio * cSpeed * Math.exp(0.01 * random.nextGaussian());
            p99s[i] = 400;
        }
        return new CaseResult[] {passed(SPEC, bRates, p99s, 0), passed(SPEC, cRates, p99s, 0)};
    }

    @Test
    void pairedRepetitionsCancelTheDriftThatFoolsAComparisonOfOneRunAfterTheOther() {
        SplittableRandom random = new SplittableRandom(17);
        CaseResult[] apart = drifting(random, 24, 1.0, false);
        CaseResult[] alternated = drifting(random, 24, 1.0, true);

        // the fault the pairing exists for: A/A, one side after the other on a slowing machine, looks regressed
        assertThat(RegressionGate.judge("b", List.of(apart[0]), "c", List.of(apart[1]), RULE, P99, false).verdict())
                .isEqualTo(RegressionGate.Verdict.REGRESSED);
        RegressionGate.Result paired = RegressionGate.judge("b", List.of(alternated[0]), "c",
                List.of(alternated[1]), RULE, P99, true);
        assertThat(paired.verdict()).isEqualTo(RegressionGate.Verdict.PASSED);
        assertThat(paired.paired()).isTrue();
        assertThat(paired.method()).contains("confidence sequence", "back to back", "asked after every pair");
        assertThat(paired.cases().getFirst().checks().getFirst().difference().paired()).isTrue();

        CaseResult[] slower = drifting(random, 24, 0.85, true);
        assertThat(RegressionGate.judge("b", List.of(slower[0]), "c", List.of(slower[1]), RULE, P99, true).verdict())
                .isEqualTo(RegressionGate.Verdict.REGRESSED);
    }

    @Test
    void pairedTheGateKeepsItsErrorRateAtTheThreshold() {
        SplittableRandom random = new SplittableRandom(29);
        int regressed = 0;
        int passed = 0;
        int aaRegressed = 0;
        for (int t = 0; t < TRIALS; t++) {
            CaseResult[] at = drifting(random, 10, 1 / 1.05, true);
            RegressionGate.Verdict v = RegressionGate.judge("b", List.of(at[0]), "c", List.of(at[1]), RULE, P99, true)
                    .verdict();
            regressed += v == RegressionGate.Verdict.REGRESSED ? 1 : 0;
            passed += v == RegressionGate.Verdict.PASSED ? 1 : 0;
            CaseResult[] aa = drifting(random, 10, 1, true);
            aaRegressed += RegressionGate.judge("b", List.of(aa[0]), "c", List.of(aa[1]), RULE, P99, true).verdict()
                    == RegressionGate.Verdict.REGRESSED ? 1 : 0;
        }
        assertThat(regressed).isLessThanOrEqualTo(TRIALS * 8 / 100);
        assertThat(passed).isLessThanOrEqualTo(TRIALS * 8 / 100);
        assertThat(aaRegressed).isLessThanOrEqualTo(TRIALS / 20);
    }

    @Test
    void theJunitReportHasATestPerCaseAndMetricAndEscapesWhatItQuotes() throws Exception {
        SplittableRandom random = new SplittableRandom(5);
        RegressionGate.Result r = RegressionGate.judge("<base>", List.of(drawn(random, 8, 1e6, 400, 0.02)),
                "c&d", List.of(drawn(random, 8, 0.8e6, 400, 0.02)), RULE, P99, false);

        String xml = GateReport.junitXml(r);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        Element suite = doc.getDocumentElement();

        assertThat(suite.getTagName()).isEqualTo("testsuite");
        assertThat(suite.getAttribute("name")).isEqualTo("loopbench regression gate: c&d against <base>");
        assertThat(suite.getAttribute("tests")).isEqualTo("2");
        assertThat(suite.getAttribute("failures")).isEqualTo("1");
        assertThat(doc.getElementsByTagName("testcase").getLength()).isEqualTo(2);
        Element failure = (Element) doc.getElementsByTagName("failure").item(0);
        assertThat(failure.getAttribute("message")).contains("regressed by more than 5 %");
        assertThat(GateReport.markdown(r)).contains("**regressed** (exit code 1)", "c\\&d", "\\<base\\>");
    }
}
