package io.loopbench.reports;

import io.loopbench.verdicts.Decision;
import io.loopbench.verdicts.VerdictRule;
import io.loopbench.engine.Failure;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.ClientPopulations;
import io.loopbench.engine.Fairness;
import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.Stat;
import io.loopbench.engine.spec.Transport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.loopbench.reports.ReportFixtures.failed;
import static io.loopbench.reports.ReportFixtures.QUIET;
import static io.loopbench.reports.ReportFixtures.checked;
import static io.loopbench.reports.ReportFixtures.failedRepetition;
import static io.loopbench.reports.ReportFixtures.measured;
import static io.loopbench.reports.ReportFixtures.ok;
import static io.loopbench.reports.ReportFixtures.open;
import static io.loopbench.reports.ReportFixtures.repetition;
import static io.loopbench.reports.ReportFixtures.summary;
import static io.loopbench.reports.ReportFixtures.unfairRepetition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Key results, comparisons and matched comparisons of executions on fixed inputs. */
class ReportRulesTest {

    @Test
    void theBestProfileIsComparedWithTheRunnerUpAndThreeRepetitionsDecideALargeConsistentGap() {
        List<CaseGroups> groups = CaseGroups.of(List.of(
                ok(Protocol.TCP, IoModel.SHARDED, 4, new Stat(1980, 1950, 2000), new Stat(1346, 1300, 1400)),
                ok(Protocol.TCP, IoModel.SHARED, 1, new Stat(1000, 990, 1010), new Stat(1491.79, 1450, 1500)),
                ok(Protocol.TCP, IoModel.SHARED, 2, new Stat(1500, 1400, 1600), new Stat(1200, 1100, 1300))));

        assertThat(groups).hasSize(1);
        assertThat(groups.getFirst().cases()).extracting(CaseResult::ioLabel)
                .containsExactly("shared 1", "shared 2", "sharded 4");
        // repetitions matched by round: 1,980 ÷ 1,500, 1,950 ÷ 1,400, 2,000 ÷ 1,600, geometric mean 1.32, each at
        // 5 % ÷ 2 (throughput and p99 are one family); the p99 ratios straddle 1
        assertThat(KeyResults.sentence(groups.getFirst(), VerdictRule.DEFAULT)).contains(
                "TCP / 1024 B / 16 clients × window 16 / no added computation: 4 loops / 1 thread each has this "
                        + "group's highest throughput median (1,980 round trips/s), with p99 RTT of 1,346.00 µs and "
                        + "process CPU utilization of 99.4 %. Against the runner-up, 1 loop group / 2 threads: "
                        + "throughput 1.32× (97.5 % interval 1.11–1.58), established; p99 1.13× (97.5 % interval "
                        + "0.87–1.46), not established.");
    }

    @Test
    void sevenMatchedRepetitionsEstablishTheWinnersLeadAndFailedCasesAreNamed() {
        double[] base = {1000, 1010, 990, 1005, 995, 1002, 998};
        double[] gain = new double[7];
        double[] p99 = {100, 101, 99, 100.5, 99.5, 100.2, 99.8};
        double[] p99Other = new double[7];
        for (int i = 0; i < 7; i++) {
            gain[i] = base[i] * (1.2 + 0.005 * (i % 3 - 1));
            p99Other[i] = p99[i] * (1 + 0.002 * (i % 2 == 0 ? 1 : -1));
        }
        CaseGroups g = CaseGroups.of(List.of(
                measuredOk(RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(1).build(), base, p99),
                measuredOk(RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(2).build(), gain, p99Other),
                failed(Protocol.TCP, IoModel.SHARDED, 2, "repetition 2 failed: unfinishedMessages=2"))).getFirst();

        String sentence = KeyResults.sentence(g, VerdictRule.DEFAULT).orElseThrow();

        assertThat(sentence).contains("1 loop group / 2 threads has this group's highest throughput median",
                "Against the runner-up, 1 loop group / 1 thread: throughput 1.20× (97.5 % interval 1.",
                "), established; p99 1.00× (97.5 % interval ",
                " Failed: 2 loops / 1 thread each (repetition 2 failed: unfinishedMessages=2).");
        // the same figures with the two swapped: the leader is the other one, the rule the same
        assertThat(KeyResults.sentence(CaseGroups.of(List.of(
                measuredOk(RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(1).build(), gain, p99),
                measuredOk(RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(2).build(), base, p99Other)))
                .getFirst(), VerdictRule.DEFAULT).orElseThrow())
                .contains("Against the runner-up, 1 loop group / 2 threads: throughput 1.20× (97.5 % interval 1.");
    }

    @Test
    void whenOneThreadIsBestTheSentenceGivesItsFiguresAndNamesTheFailedCases() {
        CaseGroups g = CaseGroups.of(List.of(
                ok(Protocol.UDP, IoModel.SHARED, 1, new Stat(92515, 92000, 93000), new Stat(207.79, 200, 210)),
                failed(Protocol.UDP, IoModel.SHARED, 2, "repetition 2 failed: lostMessages=3"),
                ok(Protocol.UDP, IoModel.SHARDED, 2, new Stat(80000, 79000, 81000), new Stat(250, 240, 260))))
                .getFirst();

        assertThat(KeyResults.sentence(g, VerdictRule.DEFAULT).orElseThrow()).startsWith(
                "UDP / 1024 B / 16 clients × window 16 / no added computation: 1 loop group / 1 thread has this "
                        + "group's highest throughput median (92,515 round trips/s), with p99 RTT of 207.79 µs and "
                        + "process CPU utilization of 99.4 %. Against the runner-up, 2 loops / 1 thread each: "
                        + "throughput 1.16× (97.5 % interval 1.02–1.32), not established")
                .endsWith(" Failed: 1 loop group / 2 threads (repetition 2 failed: lostMessages=3).");
        assertThat(KeyResults.sentence(CaseGroups.of(List.of(
                failed(Protocol.UDP, IoModel.SHARED, 1, "x"))).getFirst(), VerdictRule.DEFAULT)).contains(
                "UDP / 1024 B / 16 clients × window 16 / no added computation: no case passed. Failed: 1 loop group "
                        + "/ 1 thread (x).");
    }

    @Test
    void groupsSeparateEverythingButTheIoProfile() {
        List<CaseGroups> groups = CaseGroups.of(List.of(
                ok(Protocol.TCP, IoModel.SHARED, 1, new Stat(1, 1, 1), new Stat(1, 1, 1)),
                ok(Protocol.UDP, IoModel.SHARED, 1, new Stat(1, 1, 1), new Stat(1, 1, 1)),
                ok(Protocol.TCP, IoModel.SHARDED, 2, new Stat(1, 1, 1), new Stat(1, 1, 1))));
        assertThat(groups).extracting(CaseGroups::index).containsExactly(1, 2);
        assertThat(groups.getFirst().cases()).hasSize(2);
    }

    @Test
    void twoRunsAreComparedUnmatchedAndThreeRepetitionsOfALargeGapClearTheMachinesDrift() {
        ReportSource baseline = source("b", List.of(
                ok(Protocol.TCP, IoModel.SHARED, 1, new Stat(1000, 990, 1010), new Stat(100, 95, 105)),
                ok(Protocol.TCP, IoModel.SHARED, 2, new Stat(1000, 900, 1100), new Stat(100, 90, 110)),
                ok(Protocol.UDP, IoModel.SHARED, 1, new Stat(1, 1, 1), new Stat(1, 1, 1))));
        ReportSource candidate = source("c", List.of(
                ok(Protocol.TCP, IoModel.SHARED, 1, new Stat(1500, 1450, 1550), new Stat(80, 78, 82)),
                ok(Protocol.TCP, IoModel.SHARED, 2, new Stat(1050, 1000, 1200), new Stat(50, 45, 55)),
                failed(Protocol.TCP, IoModel.SHARDED, 2, "boom")));

        Comparisons.Comparison c = Comparisons.compare(baseline, candidate, VerdictRule.DEFAULT);

        assertThat(c.cases()).hasSize(2);
        Comparisons.CaseComparison first = c.cases().getFirst();
        assertThat(first.throughput().ratio()).isCloseTo(1.5, within(0.01));
        assertThat(first.p99().ratio()).isCloseTo(0.8, within(0.01));
        assertThat(first.throughput().paired()).isFalse();
        assertThat(first.throughput().family()).isEqualTo(4); // two cases, two metrics each
        // 3 against 3 unmatched, each difference at 5 % ÷ 4: 1.5× clears the ±10 % drift between separate runs
        // (p99's interval excludes 1 but not the ±20 % its separate runs drift)
        assertThat(first.verdict()).isEqualTo("throughput 1.50× (98.75 % interval 1.36–1.65), established beyond the "
                + "±10 % that separate runs drift on this machine; p99 0.80× (98.75 % interval 0.68–0.94), not "
                + "established: within the ±20 % that separate runs drift on this machine");
        assertThat(first.throughput().driftBound()).isEqualTo(0.10);
        assertThat(c.cases().get(1).throughput().decision()).isEqualTo(Decision.NOT_ESTABLISHED);
        assertThat(c.unmatched()).containsExactlyInAnyOrder(
                "baseline: UDP / 1024 B / 16 clients × window 16 / no added computation / shared 1",
                "candidate: TCP / 1024 B / 16 clients × window 16 / no added computation / sharded 2");
    }

    @Test
    void aMinimumEffectOutOfRangeIsRefusedNamingTheFieldAndItsRange() {
        assertThat(ReportController.rule(null)).isEqualTo(VerdictRule.DEFAULT);
        assertThat(ReportController.rule(0.1).minimumEffect()).isEqualTo(0.1);
        for (double bad : new double[] {-0.01, 1.5, Double.NaN}) {
            assertThatThrownBy(() -> ReportController.rule(bad)).isInstanceOfSatisfying(
                    org.springframework.web.server.ResponseStatusException.class, e -> {
                        assertThat(e.getStatusCode().value()).isEqualTo(400);
                        assertThat(e.getReason()).contains("minimumEffect must be between 0 and 1");
                    });
        }
    }

    @Test
    void twoRunsAreEstablishedDifferentOnlyWhenTheWholeIntervalClearsTheMachinesDrift() {
        double[] base = {1000, 1010, 990, 1005, 995, 1002, 998, 1001};
        double[] doubled = java.util.Arrays.stream(base).map(v -> 2 * v).toArray();
        RunSpec spec = RunSpec.builder().build();

        Comparisons.CaseComparison c = Comparisons.compare(source("b", List.of(measuredOk(spec, base, base))),
                source("c", List.of(measuredOk(spec, doubled, base))), VerdictRule.DEFAULT).cases().getFirst();

        assertThat(c.throughput().ratio()).isCloseTo(2.0, within(1e-9));
        assertThat(c.throughput().decision()).isEqualTo(Decision.ESTABLISHED);
        assertThat(c.verdict()).startsWith("throughput 2.00× (97.5 % interval ")
                .contains("established beyond the ±10 % that separate runs drift on this machine; p99 1.00×");

        // the fault the bound exists for: 8 % apart, the interval excludes 1 but not the drift between runs
        double[] higher = java.util.Arrays.stream(base).map(v -> 1.08 * v).toArray();
        Comparisons.CaseComparison near = Comparisons.compare(source("b", List.of(measuredOk(spec, base, base))),
                source("c", List.of(measuredOk(spec, higher, base))), VerdictRule.DEFAULT).cases().getFirst();
        assertThat(near.throughput().lower()).isGreaterThan(1.0);
        assertThat(near.throughput().decision()).isEqualTo(Decision.DRIFT_NOT_CONTROLLED);
        assertThat(near.verdict()).contains("not established: within the ±10 % that separate runs drift on this "
                + "machine");
    }

    @Test
    void twoSingleCaseRunsAreComparedWhateverTheirSpecs() {
        Comparisons.Comparison c = Comparisons.compare(
                source("b", List.of(ok(Protocol.TCP, IoModel.SHARED, 1, new Stat(100, 90, 110), new Stat(9, 8, 10)))),
                source("c", List.of(ok(Protocol.TCP, IoModel.SHARDED, 2, new Stat(300, 290, 310),
                        new Stat(9, 8, 10)))), VerdictRule.DEFAULT);
        assertThat(c.cases()).singleElement().satisfies(x -> {
            assertThat(x.throughput().ratio()).isCloseTo(3.0, within(0.05));
            assertThat(x.p99().ratio()).isCloseTo(1.0, within(1e-9));
        });
        assertThat(c.warning()).isNull();
    }

    @Test
    void aComparisonOfTwoRunsGivesEachLayersCpuPerRoundTripButEstablishesNoneOverDrift() {
        RunSpec shared = RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(1).build();
        RunSpec sharded = RunSpec.builder().ioModel(IoModel.SHARDED).ioThreads(2).build();
        Comparisons.Comparison c = Comparisons.compare(
                source("b", List.of(ReportFixtures.profiled(shared, 1e6,
                        java.util.Collections.nCopies(7, ReportFixtures.loopProfile(600, 400))))),
                source("c", List.of(ReportFixtures.profiled(sharded, 1e6,
                        java.util.Collections.nCopies(7, ReportFixtures.loopProfile(300, 400))))),
                VerdictRule.DEFAULT);
        Comparisons.ProfileComparison d = c.cases().getFirst().cpuProfile();
        // the same CPU second per million round trips on both sides, spent 600:400 against 300:400 (3:4)
        assertThat(d.layers()).extracting(Comparisons.LayerChange::name)
                .containsExactlyInAnyOrder("kernel send", "Netty pipeline");
        assertThat(d.layers()).filteredOn(l -> l.name().equals("kernel send")).singleElement().satisfies(l -> {
            assertThat(l.baselineUsPerRoundTrip()).isCloseTo(0.6, within(1e-9));
            assertThat(l.candidateUsPerRoundTrip()).isCloseTo(3.0 / 7, within(1e-9));
            assertThat(l.difference().decision()).isEqualTo(Decision.DRIFT_NOT_CONTROLLED);
        });
        assertThat(d.words()).startsWith("no layer's difference in CPU per round trip is established; the largest, ")
                .endsWith("not established: measured at different times, so drift is not controlled");

        Comparisons.Comparison unprofiled = Comparisons.compare(
                source("b", List.of(ok(Protocol.TCP, IoModel.SHARED, 1, new Stat(100, 90, 110), new Stat(9, 8, 10)))),
                source("c", List.of(ReportFixtures.profiled(sharded, 1e6, ReportFixtures.loopProfile(300, 400)))),
                VerdictRule.DEFAULT);
        assertThat(unprofiled.cases().getFirst().cpuProfile()).isNull();
    }

    @Test
    void alternatedCasesEstablishALayerThatHalvedAndAnAaComparisonNamesNone() {
        RunSpec shared = RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(1).build();
        RunSpec sharded = RunSpec.builder().ioModel(IoModel.SHARDED).ioThreads(2).build();
        java.util.SplittableRandom random = new java.util.SplittableRandom(26);
        java.util.function.IntFunction<Integer> jitter = n -> (int) Math.round(n * (1 + 0.02 * random.nextGaussian()));
        List<io.loopbench.engine.profile.CpuProfile> base = new java.util.ArrayList<>();
        List<io.loopbench.engine.profile.CpuProfile> halved = new java.util.ArrayList<>();
        List<io.loopbench.engine.profile.CpuProfile> same = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            base.add(ReportFixtures.loopProfile(jitter.apply(600), jitter.apply(400)));
            halved.add(ReportFixtures.loopProfile(jitter.apply(300), jitter.apply(400)));
            same.add(ReportFixtures.loopProfile(jitter.apply(600), jitter.apply(400)));
        }
        CaseResult b = ReportFixtures.profiled(shared, 1e6, base);

        Comparisons.ProfileComparison d = Comparisons.decide(List.<CaseResult[]>of(new CaseResult[] {b,
                ReportFixtures.profiled(sharded, 1e6, halved)}), true, VerdictRule.DEFAULT).getFirst().cpuProfile();
        assertThat(d.words()).startsWith("sharded 2 spends ").contains("% less CPU per round trip in kernel send than "
                + "shared 1 (").endsWith("established)");
        assertThat(d.layers()).filteredOn(l -> l.name().equals("kernel send")).singleElement()
                .satisfies(l -> assertThat(l.difference().established()).isTrue());

        Comparisons.ProfileComparison aa = Comparisons.decide(List.<CaseResult[]>of(new CaseResult[] {b,
                ReportFixtures.profiled(sharded, 1e6, same)}), true, VerdictRule.DEFAULT).getFirst().cpuProfile();
        assertThat(aa.layers()).noneMatch(l -> l.difference().established());
        assertThat(aa.words()).startsWith("no layer's difference in CPU per round trip is established");
    }

    @Test
    void aCaseProfiledOnOneSideOnlyIsNotClean() {
        RunSpec plain = RunSpec.builder().build();
        Comparisons.Comparison c = Comparisons.compare(
                source("b", List.of(ok(plain, new Stat(100, 90, 110), new Stat(9, 8, 10)))),
                source("c", List.of(ok(plain.toBuilder().profiling(io.loopbench.engine.spec.Profiling.CPU).build(),
                        new Stat(100, 90, 110), new Stat(9, 8, 10)))), VerdictRule.DEFAULT);
        assertThat(c.cases().getFirst().warnings()).containsExactly("the candidate was profiled and the baseline "
                + "not: the profiler's cost (p99 most) is on one side only");
        assertThat(c.cases().getFirst().verdict()).endsWith("not clean: 1 warning on its figures");
    }

    @Test
    void aRemoteRunComparedWithALoopbackOneSaysSo() {
        io.loopbench.engine.spec.RunSpec remote = io.loopbench.engine.spec.RunSpec.builder().target("127.0.0.1:7").build();
        Comparisons.Comparison c = Comparisons.compare(
                source("b", List.of(ok(Protocol.TCP, IoModel.SHARED, 1, new Stat(100, 90, 110), new Stat(9, 8, 10)))),
                source("c", List.of(ok(remote, new Stat(100, 90, 110), new Stat(9, 8, 10)))), VerdictRule.DEFAULT);
        assertThat(c.warning()).isEqualTo("the candidate ran against a remote target and the baseline over "
                + "loopback: the ratios compare different things");
        String md = ReportRenderer.markdown(source("m", List.of(
                ok(Protocol.TCP, IoModel.SHARED, 1, new Stat(1, 1, 1), new Stat(1, 1, 1)),
                ok(remote, new Stat(1, 1, 1), new Stat(1, 1, 1)))), "charts/", VerdictRule.DEFAULT);
        assertThat(md).contains("| Echo server | loopback pair in the measuring process; remote target 127.0.0.1:7 |")
                .contains("this report mixes remote and loopback cases");
    }

    @Test
    void rateCurvesNameTheHighestRateUnderTheP99BoundPerIoProfile() {
        java.util.function.BiFunction<Integer, Double, io.loopbench.engine.spec.RunSpec> open = (threads, rate) ->
                io.loopbench.engine.spec.RunSpec.builder().ioModel(threads == 1 ? IoModel.SHARED : IoModel.SHARDED)
                        .ioThreads(threads).load(io.loopbench.engine.spec.LoadModel.OPEN).rate(rate).build();
        List<CaseResult> cases = List.of(
                open(open.apply(1, 1000.0), new Stat(1000, 999, 1001), new Stat(200, 190, 210), 0),
                open(open.apply(1, 2000.0), new Stat(1990, 1980, 2000), new Stat(800, 700, 900), 0.0009),
                open(open.apply(1, 4000.0), new Stat(3100, 3000, 3200), new Stat(5000, 4000, 6000), 0),
                open(open.apply(2, 1000.0), new Stat(1000, 999, 1001), new Stat(1200, 1100, 1300), 0),
                open(open.apply(2, 2000.0), new Stat(2000, 1999, 2001), new Stat(1500, 1400, 1600), 0));

        List<RateCurves> curves = RateCurves.of(cases);

        assertThat(curves).singleElement().satisfies(c -> {
            assertThat(c.curves()).containsOnlyKeys("shared 1", "sharded 2");
            assertThat(c.sentences(1000, VerdictRule.DEFAULT)).containsExactly(
                    "TCP / 1024 B / 16 clients × window 16 / no added computation / shared 1: the highest rate "
                            + "under the p99 bound of 1,000.00 µs is 2,000 messages/s (1,990 round trips/s achieved, "
                            + "p99 800.00 µs, under the bound at p = 0.016, 6 repetitions, 0.09 % dropped); 4,000 messages/s is excluded (p99 5,000.00 µs is at or "
                            + "above the bound; only 75.00 % of the rate was achieved, at least 99.00 % needed).",
                    "TCP / 1024 B / 16 clients × window 16 / no added computation / sharded 2: no highest rate "
                            + "under the p99 bound of 1,000.00 µs: the lowest rate, 1,000 messages/s, is excluded "
                            + "(p99 1,200.00 µs is at or above the bound), and so is every rate measured.");
        });
        // a curve that dips under the bound only above its lowest rate does not "stay under" anywhere
        List<CaseResult> noisy = List.of(
                open(open.apply(1, 1000.0), new Stat(1000, 999, 1001), new Stat(1500, 1400, 1600), 0),
                open(open.apply(1, 2000.0), new Stat(2000, 1999, 2001), new Stat(800, 700, 900), 0),
                open(open.apply(1, 4000.0), new Stat(3000, 2999, 3001), new Stat(1100, 1000, 1200), 0));
        assertThat(RateCurves.of(noisy).getFirst().sentences(1000, VerdictRule.DEFAULT)).containsExactly(
                "TCP / 1024 B / 16 clients × window 16 / no added computation / shared 1: no highest rate under the "
                        + "p99 bound of 1,000.00 µs: the lowest rate, 1,000 messages/s, is excluded (p99 1,500.00 µs "
                        + "is at or above the bound); 2,000 messages/s would qualify alone, but not from the lowest "
                        + "rate up.");
        // every rate is its own table and chart group; the curve joins them
        assertThat(CaseGroups.of(cases)).hasSize(3);
        ReportSource source = source("m", cases);
        assertThat(ReportCharts.chartNames(source)).contains("rate-1");
        assertThat(ReportCharts.chart(source, "rate-1")).get(
                org.assertj.core.api.InstanceOfAssertFactories.STRING).contains("p99 bound", "shared 1");
        assertThat(ReportRenderer.markdown(source, "charts/", VerdictRule.DEFAULT)).contains("## Latency versus rate",
                "| Load | open loop at 1,000 messages/s; open loop at 2,000 messages/s; open loop at 4,000 messages/s |");
    }

    @Test
    void aRateIsNamedOnlyWhereUnderAThousandthWasDroppedAndNinetyNinePercentAchieved() {
        java.util.function.DoubleFunction<RunSpec> at = rate -> RunSpec.builder()
                .load(io.loopbench.engine.spec.LoadModel.OPEN).rate(rate).build();
        String head = "TCP / 1024 B / 16 clients × window 16 / no added computation / shared 1: ";
        // p99 is under the bound at every rate, but 2,000/s shed 0.5 % of its messages: they are not in the histogram
        List<CaseResult> dropping = List.of(
                open(at.apply(1000), new Stat(1000, 1000, 1000), new Stat(100, 90, 110), 0),
                open(at.apply(2000), new Stat(1990, 1990, 1990), new Stat(120, 110, 130), 0.005),
                open(at.apply(4000), new Stat(3990, 3990, 3990), new Stat(150, 140, 160), 0));
        assertThat(RateCurves.of(dropping).getFirst().sentences(1000, VerdictRule.DEFAULT)).containsExactly(head
                + "the highest rate under the p99 bound of 1,000.00 µs is 1,000 messages/s (1,000 round trips/s "
                + "achieved, p99 100.00 µs, under the bound at p = 0.016, 6 repetitions, 0.00 % dropped); 2,000 messages/s is excluded (0.50 % of the intended "
                + "messages were dropped, under 0.10 % allowed).");
        // no drops, but the system carried only 98 % of the rate in its worst repetition
        List<CaseResult> lagging = List.of(
                open(at.apply(1000), new Stat(1000, 980, 1000), new Stat(100, 90, 110), 0),
                open(at.apply(2000), new Stat(2000, 2000, 2000), new Stat(120, 110, 130), 0));
        assertThat(RateCurves.of(lagging).getFirst().sentences(1000, VerdictRule.DEFAULT)).containsExactly(head
                + "no highest rate under the p99 bound of 1,000.00 µs: the lowest rate, 1,000 messages/s, is "
                + "excluded (only 98.00 % of the rate was achieved, at least 99.00 % needed); 2,000 messages/s would "
                + "qualify alone, but not from the lowest rate up.");
        // a case that does not say what it dropped cannot be named either, nor one of three repetitions
        assertThat(RateCurves.exclusions(ok(at.apply(1000), new Stat(1000, 1000, 1000), new Stat(1, 1, 1)), 1000,
                VerdictRule.DEFAULT))
                .containsExactly("p99 1.00 µs is not established under the bound (too few repetitions to decide (3; "
                        + "at least 5 needed))", "its dropped messages were not recorded");
        // a median under the bound whose repetitions straddle it is not established under it
        List<CaseResult> straddling = List.of(
                open(at.apply(1000), new Stat(1000, 1000, 1000), new Stat(100, 90, 110), 0),
                open(at.apply(2000), new Stat(2000, 2000, 2000), new Stat(950, 800, 1100), 0));
        assertThat(RateCurves.of(straddling).getFirst().sentences(1000, VerdictRule.DEFAULT)).singleElement()
                .asString().endsWith("; 2,000 messages/s is excluded (p99 950.00 µs is not established under the "
                        + "bound (p = 0.281, 6 repetitions)).");
        assertThat(ReportRenderer.markdown(source("m", dropping), "charts/", VerdictRule.DEFAULT)).contains(
                "in every repetition under 0.10 % of the intended messages dropped and at least 99.00 % of the rate "
                        + "achieved", "0.50 % of the intended messages were dropped, under 0.10 % allowed");
    }

    @Test
    void theReportSaysWhichRepetitionsWereNotJitQuietAndWhatTheSelfChecksFound() {
        JitActivity noisy = new JitActivity(14, 1, 3.2, false, List.of("deoptimized (unstable_if): x"), 7L, 5L, 1L,
                0.004);
        String warning = "repetition 2: " + noisy.warning();
        CaseResult shared1 = new CaseResult(RunSpec.builder().build(), Transport.EPOLL,
                summary(new Stat(2000, 1900, 2100), new Stat(300, 290, 310), 350.5, new Stat(0.999, 0.990, 1.0),
                        new Stat(1.001, 0.998, 1.004), List.of(warning)),
                List.of(checked(1, QUIET, new Fairness(16, 900, 1100, 0.995), 1.001, 1.4, "steady"),
                        checked(2, noisy, new Fairness(16, 950, 1050, 0.990), 0.998, 10, "cap",
                                warning.substring("repetition 2: ".length())),
                        checked(3, QUIET, new Fairness(16, 980, 1020, 0.999), 1.004, 1.2, "steady")),
                null);
        CaseResult shared2 = new CaseResult(RunSpec.builder().ioThreads(2).build(), Transport.EPOLL,
                summary(new Stat(1000, 990, 1010), new Stat(300, 290, 310), 310.0, new Stat(1, 1, 1),
                        new Stat(1, 1, 1), List.of()),
                List.of(checked(1, QUIET, new Fairness(16, 500, 1_500, 0.8, new ClientPopulations(
                        new ClientPopulations.Population(8, 12_000, 1_400, 1_500, null, null),
                        new ClientPopulations.Population(8, 4_000, 500, 600, null, 900.0))), 1, 1.3, "steady")),
                null);

        String md = ReportRenderer.markdown(source("m", List.of(shared1, shared2)), "charts/", VerdictRule.DEFAULT);

        assertThat(md).contains(
                "| 1 loop group / 1 thread | 2,000 [1,900, 2,100] | 1.0 | 1.00 | 1.00 | 300.00 | 350.50 |",
                "| 1 loop group / 1 thread | 1 of 3 not quiet: repetition 2: measured-path code changed 6 times: "
                        + "1 deoptimization and 5 C2/OSR compilations (at most 5) | 0.990 (950–1,050) | "
                        + "1.001 [0.998, 1.004] | not recorded | auto: 1.40 s [1.20, 10.00], stopped because steady "
                        + "in 2, cap in 1 |",
                "| 1 loop group / 2 threads | 1 of 1 quiet | 0.800 (500–1,500; same thread as their server 1,500 per "
                        + "client (8), other 500 (8, p99 900.00 µs)) |",
                "Warnings (the figures of these repetitions are doubtful):\n\n- 1 loop group / 1 thread, " + warning,
                "has this group's highest throughput median (2,000 round trips/s)",
                "This result is not established: 1 loop group / 1 thread carries warnings",
                "- **Timestamps**: a message's send stamp is taken as the client writes it",
                "with netty at the batch's flush (which writes to the socket), with reactive when Reactor Netty's "
                        + "outbound sends it on the same loop, with virtual threads at the blocking socket write",
                "**p99 pooled** is the 99th percentile of every repetition's observations merged",
                "- **Window fill**:", "- **Stamp gap**:", "- **Fairness**:", "- **JIT**:", "- **Send lag and late** (open load)",
                "| Measurement / warm-up / repetitions | 2.0 s / auto 1.0 … 10.0 s / 3 |");
        // the same group without the warning states its result plainly
        CaseResult clean = new CaseResult(shared1.spec(), Transport.EPOLL, summary(new Stat(2000, 1900, 2100),
                new Stat(300, 290, 310), 350.5, new Stat(1, 1, 1), new Stat(1, 1, 1), List.of()),
                List.of(checked(1, QUIET, new Fairness(16, 1000, 1000, 1), 1, 1.3, "steady")), null);
        assertThat(KeyResults.sentence(CaseGroups.of(List.of(clean, shared2)).getFirst(), VerdictRule.DEFAULT)
                .orElseThrow())
                .doesNotContain("not established");
    }

    @Test
    void anUnfairRepetitionFailsItsCaseWithItsReasonInTheReportAndTheComparison() {
        RunSpec spec = RunSpec.builder().build();
        CaseResult unfair = new CaseResult(spec, Transport.EPOLL, null,
                List.of(checked(1, QUIET, new Fairness(16, 900, 1100, 0.99), 1, 1.3, "steady"), unfairRepetition(2)),
                "repetition 2 failed: unfair: client 3 completed 12 validated echoes, under a tenth of the mean "
                        + "1,000.0 (Jain's index 0.940)");

        String md = ReportRenderer.markdown(source("m", List.of(unfair)), "charts/", VerdictRule.DEFAULT);

        assertThat(md).contains("| 1 loop group / 1 thread | FAILED: repetition 2 failed: unfair: client 3",
                "Failed repetitions (their case shows no figures):\n\n- 1 loop group / 1 thread, repetition 2: "
                        + "unfair: client 3 completed 12 validated echoes, under a tenth of the mean 1,000.0");
        Comparisons.Comparison c = Comparisons.compare(
                source("b", List.of(ok(spec, new Stat(1, 1, 1), new Stat(1, 1, 1)))), source("c", List.of(unfair)),
                VerdictRule.DEFAULT);
        assertThat(c.cases()).isEmpty();
        assertThat(c.failedCases()).singleElement().asString().endsWith(" (candidate failed as unfair: repetition 2: "
                + "unfair: client 3 completed 12 validated echoes, under a tenth of the mean 1,000.0 (Jain's index "
                + "0.940))");
    }

    @Test
    void aClientStarvedOnAnotherAgentFailsItsCaseAsUnfairInTheComparisonToo() {
        RunSpec spec = RunSpec.builder().build();
        for (Failure f : List.of(new Failure.Unfair("agent-b", -1, 12, 1000, 0.94),
                new Failure.Agent("agent-b", new Failure.Stalled(400_000, 1)))) {
            CaseResult unfair = new CaseResult(spec, Transport.EPOLL, null, List.of(unfairRepetition(1, f)),
                    "repetition 1 failed: " + f.message());

            Comparisons.Comparison c = Comparisons.compare(source("b", List.of(ok(spec, new Stat(1, 1, 1),
                    new Stat(1, 1, 1)))), source("c", List.of(unfair)), VerdictRule.DEFAULT);

            assertThat(c.failedCases()).singleElement().asString()
                    .endsWith(" (candidate failed as unfair: repetition 1: " + f.message() + ")");
        }
    }

    @Test
    void aComparisonFlagsEitherSidesWarningsSoItsRatioIsNotReadAsClean() {
        RunSpec spec = RunSpec.builder().build();
        CaseResult clean = new CaseResult(spec, Transport.EPOLL, summary(new Stat(1000, 990, 1010),
                new Stat(100, 95, 105), null, new Stat(1, 1, 1), new Stat(1, 1, 1), List.of()),
                List.of(checked(1, QUIET, new Fairness(16, 1000, 1000, 1), 1, 1.3, "steady")), null);
        CaseResult warned = new CaseResult(spec, Transport.EPOLL, summary(new Stat(1500, 1450, 1550),
                new Stat(80, 78, 82), null, new Stat(1, 1, 1), new Stat(1.08, 1.08, 1.08),
                List.of("repetition 1: window not kept full: round trips/s × mean RTT gives 276.48 messages in "
                        + "flight, clients × window is 256 (+8.0 %)")),
                List.of(checked(1, QUIET, new Fairness(16, 1000, 1000, 1), 1.08, 1.3, "steady")), null);

        Comparisons.CaseComparison flagged = Comparisons.compare(source("b", List.of(clean)),
                source("c", List.of(warned)), VerdictRule.DEFAULT).cases().getFirst();
        assertThat(flagged.warnings()).containsExactly("candidate repetition 1: window not kept full: round trips/s × "
                + "mean RTT gives 276.48 messages in flight, clients × window is 256 (+8.0 %)");
        assertThat(flagged.verdict()).endsWith("; not clean: 1 warning on its figures");
        assertThat(Comparisons.compare(source("b", List.of(clean)), source("c", List.of(clean)), VerdictRule.DEFAULT)
                .cases().getFirst()
                .warnings()).isEmpty();
        // a record from before the self-checks cannot be read as clean either
        CaseResult old = measured(spec, repetition(1, 1000, 100));
        CaseResult oldOk = new CaseResult(spec, Transport.EPOLL, clean.summary(), old.repetitions(), null);
        assertThat(Comparisons.compare(source("b", List.of(oldOk)), source("c", List.of(clean)), VerdictRule.DEFAULT)
                .cases().getFirst()
                .warnings()).containsExactly("baseline: recorded before the self-checks (JIT activity, fairness, "
                + "window fill) existed");
    }

    @Test
    void executionsArePairedRepetitionByRepetitionAgainstTheFirstListed() {
        RunSpec.Builder shared1 = RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(1);
        CaseResult netty = measured(shared1.execution(Execution.NETTY).build(),
                repetition(1, 1000, 100), repetition(2, 1100, 100), repetition(3, 900, 90));
        CaseResult reactive = measured(shared1.execution(Execution.REACTIVE).build(),
                repetition(1, 800, 110), repetition(2, 990, 100), repetition(3, 630, 117));
        // repetition 2 failed: its index pairs with nothing, whatever its figures
        CaseResult virtual = measured(shared1.execution(Execution.VIRTUAL_THREADS).build(),
                repetition(1, 1050, 100), failedRepetition(2), repetition(3, 945, 99));
        List<Execution> listed = List.of(Execution.NETTY, Execution.REACTIVE, Execution.VIRTUAL_THREADS);

        List<ExecutionComparisons.ExecutionRatios> rows = ExecutionComparisons.of(List.of(netty, reactive, virtual),
                listed, VerdictRule.DEFAULT);

        assertThat(rows).extracting(ExecutionComparisons.ExecutionRatios::execution)
                .containsExactly(Execution.REACTIVE, Execution.VIRTUAL_THREADS);
        ExecutionComparisons.ExecutionRatios r = rows.getFirst();
        assertThat(r.caseTitle()).isEqualTo("TCP / 1024 B / 16 clients × window 16 / no added computation / shared 1");
        assertThat(r.baseline()).isEqualTo(Execution.NETTY);
        assertThat(r.pairs()).isEqualTo(3);
        // per-pair throughput ratios 0.8, 0.9 and 0.7: their Walsh averages' median (on logarithms) is 0.797
        assertThat(r.throughput().ratio()).isCloseTo(0.797, within(0.001));
        assertThat(r.throughput().paired()).isTrue();
        assertThat(r.throughput().baselineSize()).isEqualTo(3);
        // three ratios of a row are one family: 0.05 ÷ 3 needs 7 pairs all one way (2 ÷ 2⁷ ≈ 0.016)
        assertThat(List.of(r.throughput(), r.cpu(), r.cpuPerRoundTrip())).allSatisfy(d -> {
            assertThat(d.decision()).isEqualTo(Decision.TOO_FEW_REPETITIONS);
            assertThat(d.needed()).isEqualTo(7);
            assertThat(d.family()).isEqualTo(3);
        });
        ExecutionComparisons.ExecutionRatios v = rows.get(1);
        assertThat(v.pairs()).isEqualTo(2);
        assertThat(v.throughput().ratio()).isCloseTo(1.05, within(1e-9));
        // per-pair CPU ratios 1.0 and 1.1: the middle of the three Walsh averages, exp((ln 1 + ln 1.1) ÷ 2)
        assertThat(v.cpu().ratio()).isCloseTo(Math.sqrt(1.1), within(1e-9));

        // pairs are found by repetition index, whichever execution ran first and in whatever order cases come
        assertThat(ExecutionComparisons.of(List.of(virtual, reactive, netty), listed, VerdictRule.DEFAULT))
                .isEqualTo(rows);
        // the first listed execution is the baseline
        ExecutionComparisons.ExecutionRatios inverse = ExecutionComparisons.of(List.of(netty, reactive),
                List.of(Execution.REACTIVE, Execution.NETTY), VerdictRule.DEFAULT).getFirst();
        assertThat(inverse.baseline()).isEqualTo(Execution.REACTIVE);
        assertThat(inverse.throughput().ratio()).isCloseTo(1 / 0.797, within(0.002));
        // a case without the first listed execution (sharded has no virtual-threads) compares with the next listed
        assertThat(ExecutionComparisons.of(List.of(reactive, netty), List.of(Execution.VIRTUAL_THREADS,
                Execution.NETTY, Execution.REACTIVE), VerdictRule.DEFAULT)).singleElement().extracting(
                ExecutionComparisons.ExecutionRatios::baseline).isEqualTo(Execution.NETTY);
        // a case alone, or cases of other conditions, pair with nothing
        CaseResult otherPayload = measured(shared1.payloadBytes(64).execution(Execution.REACTIVE).build(),
                repetition(1, 1, 1));
        assertThat(ExecutionComparisons.of(List.of(netty, otherPayload), listed, VerdictRule.DEFAULT)).isEmpty();
    }

    @Test
    void matchedExecutionsCountThePairsWhoseRepetitionsCarryWarnings() {
        RunSpec.Builder spec = RunSpec.builder();
        Fairness even = new Fairness(16, 1000, 1000, 1);
        CaseResult netty = measured(spec.execution(Execution.NETTY).build(),
                checked(1, QUIET, even, 1, 1.3, "steady"),
                checked(2, QUIET, even, 1, 10, "cap", "auto warm-up reached its cap of 10.0 s before throughput "
                        + "was stable and the JIT quiet"));
        CaseResult reactive = measured(spec.execution(Execution.REACTIVE).build(),
                checked(1, QUIET, even, 1, 1.3, "steady"), checked(2, QUIET, even, 1, 1.3, "steady"));

        assertThat(ExecutionComparisons.of(List.of(netty, reactive), List.of(Execution.NETTY, Execution.REACTIVE),
                VerdictRule.DEFAULT)).singleElement().satisfies(r -> {
                    assertThat(r.pairs()).isEqualTo(2);
                    assertThat(r.pairsWithWarnings()).isEqualTo(1);
                });
        assertThat(ReportRenderer.markdown(source("m", List.of(netty, reactive)), "charts/", VerdictRule.DEFAULT))
                .contains("| reactive vs netty | 2 of 3 (1 with warnings) |");
    }

    @Test
    void theReportShowsExecutionsMatchedOnlyWhenCasesDifferByExecution() {
        RunSpec.Builder spec = RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(1);
        CaseResult netty = measured(spec.execution(Execution.NETTY).build(), repetition(1, 1000, 100),
                repetition(2, 1000, 100));
        CaseResult reactive = measured(spec.execution(Execution.REACTIVE).build(), repetition(1, 900, 100),
                failedRepetition(2));
        CaseResult failedVirtual = measured(spec.execution(Execution.VIRTUAL_THREADS).build(), failedRepetition(1));

        String md = ReportRenderer.markdown(source("m", List.of(netty, reactive, failedVirtual)), "charts/", VerdictRule.DEFAULT);

        assertThat(md).contains("## Executions, matched\n\nEach ratio is an execution's figure ÷ the baseline "
                        + "execution's (the first listed) in the same repetition",
                "| TCP / 1024 B / 16 clients × window 16 / no added computation / shared 1 | reactive vs netty | 1 of 3 "
                        + "| 0.90×, too few repetitions to decide (1; at least 7 needed) | 1.00×, too few "
                        + "repetitions to decide (1; at least 7 needed) | 1.11×, too few repetitions to decide (1; at "
                        + "least 7 needed) |",
                "| virtual-threads vs netty | 0 of 3 | no pair | no pair | no pair |",
                "#### TCP / 1024 B / 16 clients × window 16 / no added computation / reactive execution",
                "| Execution | netty; reactive; virtual-threads |");
        assertThat(ReportRenderer.markdown(source("n", List.of(netty)), "charts/", VerdictRule.DEFAULT)).doesNotContain("Executions, matched");
    }

    @Test
    void protocolCostsCompareEachProtocolWithTcpAndEachTlsProtocolWithItsPlaintextPerProfile() {
        RunSpec.Builder shared1 = RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(1);
        CaseResult tcp = ok(shared1.protocol(Protocol.TCP).build(), new Stat(1000, 990, 1010), new Stat(100, 95, 105));
        CaseResult tcps = ok(shared1.protocol(Protocol.TCPS).build(), new Stat(500, 480, 520), new Stat(200, 190, 210));
        CaseResult tcpsOpenssl = ok(shared1.protocol(Protocol.TCPS).tlsProvider(TlsProvider.OPENSSL).build(),
                new Stat(600, 590, 610), new Stat(150, 140, 160));
        CaseResult ws = ok(shared1.protocol(Protocol.WEBSOCKET).tlsProvider(TlsProvider.AUTO).build(),
                new Stat(800, 700, 900), new Stat(100, 99, 101));
        CaseResult wss = ok(shared1.protocol(Protocol.WSS).build(), new Stat(400, 390, 410), new Stat(300, 290, 310));
        CaseResult http = ok(shared1.protocol(Protocol.HTTP).build(), new Stat(300, 290, 310), new Stat(400, 390, 410));
        CaseResult https = ok(shared1.protocol(Protocol.HTTPS).build(), new Stat(200, 190, 210), new Stat(600, 590, 610));
        // another IO profile with no TCP case: its wss is compared with its websocket only
        RunSpec.Builder shared2 = RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(2);
        CaseResult ws2 = ok(shared2.protocol(Protocol.WEBSOCKET).build(), new Stat(900, 890, 910), new Stat(90, 85, 95));
        CaseResult wss2 = failed(Protocol.WSS, IoModel.SHARED, 2, "boom");

        List<ProtocolCosts.ProtocolCost> costs = ProtocolCosts.of(List.of(tcp, tcps, tcpsOpenssl, ws, wss, http, https,
                ws2, wss2), VerdictRule.DEFAULT);

        assertThat(costs).extracting(c -> c.protocol() + " ÷ " + c.baseline() + (c.tlsCost() ? " TLS" : ""))
                .containsExactly("tcps ÷ tcp TLS", "tcps / TLS openssl ÷ tcp TLS", "websocket ÷ tcp", "wss ÷ tcp",
                        "wss ÷ websocket TLS", "http ÷ tcp", "https ÷ tcp", "https ÷ http TLS",
                        "wss ÷ websocket TLS");
        ProtocolCosts.ProtocolCost httpsCost = costs.get(7);
        assertThat(httpsCost.comparison().throughput().ratio()).isCloseTo(200.0 / 300, within(0.005));
        assertThat(httpsCost.comparison().p99().ratio()).isCloseTo(1.5, within(0.01));
        assertThat(httpsCost.comparison().throughput().paired()).as("one matrix's cases: matched by round").isTrue();
        ProtocolCosts.ProtocolCost tcpsCost = costs.getFirst();
        assertThat(tcpsCost.profile())
                .isEqualTo("1024 B / 16 clients × window 16 / no added computation / shared 1");
        assertThat(tcpsCost.comparison().throughput().ratio()).isCloseTo(0.5, within(0.01));
        assertThat(tcpsCost.comparison().p99().ratio()).isCloseTo(2.0, within(1e-9));
        // one profile's costs are one family: shared 1 has eight, sixteen differences
        assertThat(tcpsCost.comparison().throughput().family()).isEqualTo(16);
        assertThat(costs.get(4).comparison().throughput().ratio()).isCloseTo(0.5, within(0.01));
        assertThat(costs.getLast().comparison()).isNull();
        assertThat(costs.getLast().failure()).isEqualTo("(candidate failed: boom)");
        assertThat(costs.getLast().profile()).endsWith("/ shared 2");

        String md = ReportRenderer.markdown(source("m", List.of(tcp, tcps, tcpsOpenssl, ws, wss, ws2, wss2)), "charts/", VerdictRule.DEFAULT);
        assertThat(md).contains("## Protocol cost\n\nEach protocol against TCP",
                "| 1024 B / 16 clients × window 16 / no added computation / shared 1 | tcps | tcp (TLS cost) "
                        + "| 0.50× (99.5 % interval 0.45–0.56), established | 2.00× (99.5 % interval 1.76–2.27), "
                        + "established |  |",
                "| tcps / TLS openssl | tcp (TLS cost) | 0.60× (99.5 % interval 0.55–0.66), established | 1.50× "
                        + "(99.5 % interval 1.32–1.70), established |",
                // the noisier side's floor: websocket's rounds spread 4.3 % on one thread, TCP's 1.4 %
                "| websocket | tcp | 0.80× (99.5 % interval 0.52–1.21), not established | 1.00× (99.5 % interval "
                        + "0.72–1.39), not established |",
                "| wss | websocket (TLS cost) | | | (candidate failed: boom) |");
        assertThat(ReportRenderer.markdown(source("t", List.of(tcp)), "charts/", VerdictRule.DEFAULT)).doesNotContain("Protocol cost");
    }

    @Test
    void http2AndGrpcOverTlsAreComparedWithTheirPlaintextOfTheSameMethod() {
        RunSpec.Builder shared1 = RunSpec.builder().ioModel(IoModel.SHARED).ioThreads(1);
        Stat p99 = new Stat(100, 95, 105);
        CaseResult h2c = ok(shared1.protocol(Protocol.H2C).build(), new Stat(800, 790, 810), p99);
        CaseResult h2 = ok(shared1.protocol(Protocol.H2).build(), new Stat(400, 390, 410), p99);
        CaseResult unary = ok(shared1.protocol(Protocol.GRPC).build(), new Stat(300, 290, 310), p99);
        CaseResult stream = ok(shared1.protocol(Protocol.GRPC).grpcMethod(GrpcMethod.STREAM).build(),
                new Stat(900, 890, 910), p99);
        CaseResult streamTls = ok(shared1.protocol(Protocol.GRPCS).grpcMethod(GrpcMethod.STREAM).build(),
                new Stat(450, 440, 460), p99);

        List<ProtocolCosts.ProtocolCost> costs = ProtocolCosts.of(List.of(h2c, h2, unary, stream, streamTls),
                VerdictRule.DEFAULT);

        assertThat(costs).extracting(c -> c.protocol() + " ÷ " + c.baseline() + (c.tlsCost() ? " TLS" : ""))
                .containsExactly("h2 ÷ h2c TLS", "grpcs / bidirectional stream ÷ grpc TLS");
        assertThat(costs.getLast().comparison().throughput().ratio()).as("against the stream, not the unary calls")
                .isCloseTo(0.5, within(0.01));
    }

    @Test
    void theConditionsNameWhatEachTlsHandshakeNegotiated() {
        RunSpec.Builder spec = RunSpec.builder().protocol(Protocol.TCPS);
        CaseResult jdk = measured(spec.build(), repetition(1, 1000, 100,
                new io.loopbench.engine.protocol.TlsSession("jdk", "TLSv1.3", "TLS_AES_256_GCM_SHA384")));
        CaseResult openssl = measured(spec.tlsProvider(TlsProvider.OPENSSL).build(), repetition(1, 1000, 100,
                new io.loopbench.engine.protocol.TlsSession("openssl", "TLSv1.3", "TLS_AES_128_GCM_SHA256")));

        assertThat(ReportRenderer.markdown(source("t", List.of(jdk, openssl)), "charts/", VerdictRule.DEFAULT)).contains(
                "| TLS negotiated | jdk: TLSv1.3 TLS\\_AES\\_256\\_GCM\\_SHA384; openssl: TLSv1.3 "
                        + "TLS\\_AES\\_128\\_GCM\\_SHA256 |"); // Markdown-escaped
        assertThat(ReportRenderer.markdown(source("p", List.of(measured(RunSpec.builder().build(),
                repetition(1, 1000, 100)))), "charts/", VerdictRule.DEFAULT)).doesNotContain("TLS negotiated");
    }

    /** A passed case whose repetition i has round trips/s {@code roundTrips[i]} and p99 {@code p99[i]}. */
    private static CaseResult measuredOk(RunSpec spec, double[] roundTrips, double[] p99) {
        List<io.loopbench.engine.RepetitionResult> repetitions = new java.util.ArrayList<>();
        for (int i = 0; i < roundTrips.length; i++) {
            repetitions.add(ReportFixtures.passed(i + 1, roundTrips[i], p99[i]));
        }
        return new CaseResult(spec, Transport.EPOLL, summary(Stat.of(java.util.Arrays.stream(roundTrips).boxed()
                .toList()), Stat.of(java.util.Arrays.stream(p99).boxed().toList()), null, null, null, List.of()),
                repetitions, null);
    }

    static ReportSource source(String id, List<CaseResult> cases) {
        return new ReportSource("matrix", id, "succeeded", java.time.Instant.EPOCH, null,
                io.loopbench.system.SystemInfo.current(), null, "forked", cases,
                cases.stream().map(c -> c.spec().execution()).distinct().toList(), "/api/matrices/" + id, null);
    }
}
