package io.loopbench.gate;

import io.loopbench.engine.spec.IoModel;
import io.loopbench.reports.CaseResult;
import io.loopbench.verdicts.VerdictRule;
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
    private static final int TRIALS = 400;

    private static RegressionGate.Result gate(CaseResult baseline, CaseResult candidate) {
        return RegressionGate.judge("base", List.of(baseline), "cand", List.of(candidate), RULE);
    }

    @Test
    void anAaComparisonNamesNoRegressionBeyondItsErrorRateAndUsuallyPasses() {
        SplittableRandom random = new SplittableRandom(11);
        int regressed = 0;
        int passed = 0;
        for (int t = 0; t < TRIALS; t++) {
            RegressionGate.Verdict v = gate(drawn(random, 8, 1e6, 400, 0.02), drawn(random, 8, 1e6, 400, 0.02))
                    .verdict();
            regressed += v == RegressionGate.Verdict.REGRESSED ? 1 : 0;
            passed += v == RegressionGate.Verdict.PASSED ? 1 : 0;
        }
        assertThat(regressed).as("A/A trials called regressed").isLessThanOrEqualTo(TRIALS / 20);
        assertThat(passed).as("A/A trials passed, 8 repetitions a side at 2 %% spread").isGreaterThan(TRIALS * 9 / 10);
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
        assertThat(throughput.outcome()).isEqualTo("regressed");
        assertThat(throughput.words()).contains("regressed by more than 5 %");
        assertThat(throughput.difference().ratio()).isBetween(0.75, 0.85);

        RegressionGate.Result tail = gate(drawn(random, 8, 1e6, 400, 0.02), drawn(random, 8, 1e6, 520, 0.02));
        assertThat(tail.verdict()).isEqualTo(RegressionGate.Verdict.REGRESSED);
        assertThat(tail.cases().getFirst().checks().get(1).outcome()).isEqualTo("regressed");
        assertThat(tail.cases().getFirst().checks().getFirst().outcome()).isEqualTo("within");
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
    void twoRepetitionsASideCannotDecideAndSaySo() {
        CaseResult b = passed(SPEC, new double[] {1e6, 1.01e6}, new double[] {400, 401}, List.of());
        CaseResult c = passed(SPEC, new double[] {0.5e6, 0.51e6}, new double[] {400, 401}, List.of());

        RegressionGate.Result r = gate(b, c);

        assertThat(r.verdict()).isEqualTo(RegressionGate.Verdict.UNDECIDED);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.reasons()).anySatisfy(reason -> assertThat(reason).contains("too few repetitions (2 and 2"));
    }

    @Test
    void aCaseWithWarningsDecidesNothingEvenWhenItLooksRegressed() {
        SplittableRandom random = new SplittableRandom(3);
        CaseResult b = drawn(random, 8, 1e6, 400, 0.02);
        CaseResult warned = passed(SPEC, new double[] {5e5, 5e5, 5e5, 5e5, 5e5, 5e5, 5e5, 5e5},
                new double[] {400, 400, 400, 400, 400, 400, 400, 400},
                List.of("repetition 2: measured phase not JIT-quiet"));

        RegressionGate.Result r = gate(b, warned);

        assertThat(r.verdict()).isEqualTo(RegressionGate.Verdict.UNDECIDED);
        assertThat(r.cases().getFirst().checks()).allMatch(k -> k.outcome().equals("undecided")
                && k.adjustedRegressionP() == null);
        assertThat(r.reasons()).anySatisfy(reason -> assertThat(reason).contains("not clean (1 warning)"));
    }

    @Test
    void aFailedOrOneSidedCaseKeepsTheGateFromPassingButNotARegressionElsewhereFromShowing() {
        SplittableRandom random = new SplittableRandom(9);
        CaseResult failed = new CaseResult(SPEC.toBuilder().ioModel(IoModel.SHARDED).ioThreads(2).build(),
                null, null, List.of(), "repetition 1 failed: measured phase: lostMessages=3");
        CaseResult onlyHere = passed(SPEC.toBuilder().ioThreads(2).build(), new double[] {1, 1, 1},
                new double[] {1, 1, 1}, List.of());
        CaseResult b = drawn(random, 8, 1e6, 400, 0.02);
        CaseResult bFailedSide = passed(failed.spec(), new double[] {1, 1, 1}, new double[] {1, 1, 1}, List.of());

        RegressionGate.Result undecided = RegressionGate.judge("base", List.of(b, bFailedSide, onlyHere), "cand",
                List.of(drawn(random, 8, 1e6, 400, 0.02), failed), RULE);
        assertThat(undecided.verdict()).isEqualTo(RegressionGate.Verdict.UNDECIDED);
        assertThat(undecided.failedCases()).singleElement().asString().contains("candidate failed: repetition 1");
        assertThat(undecided.unmatched()).singleElement().asString().startsWith("baseline: ");

        RegressionGate.Result regressed = RegressionGate.judge("base", List.of(b, bFailedSide), "cand",
                List.of(drawn(random, 8, 0.7e6, 400, 0.02), failed), RULE);
        assertThat(regressed.verdict()).isEqualTo(RegressionGate.Verdict.REGRESSED);
        assertThat(regressed.reasons()).isNotEmpty();
    }

    @Test
    void theJunitReportHasATestPerCaseAndMetricAndEscapesWhatItQuotes() throws Exception {
        SplittableRandom random = new SplittableRandom(5);
        RegressionGate.Result r = RegressionGate.judge("<base>", List.of(drawn(random, 8, 1e6, 400, 0.02)),
                "c&d", List.of(drawn(random, 8, 0.8e6, 400, 0.02)), RULE);

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
