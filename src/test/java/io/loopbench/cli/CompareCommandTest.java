package io.loopbench.cli;

import io.loopbench.engine.Checks;
import io.loopbench.engine.EchoPairSetup;
import io.loopbench.engine.Fairness;
import io.loopbench.engine.JvmActivity;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.ResourceUse;
import io.loopbench.engine.RoundTripTimes;
import io.loopbench.engine.Stat;
import io.loopbench.engine.Summary;
import io.loopbench.engine.Throughput;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.GcActivity;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.process.MemoryUsage;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./loopbench compare}'s exit codes on result files as {@code measure} prints them and as the service stores
 * runs and matrices.
 */
class CompareCommandTest {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final JitActivity QUIET = new JitActivity(0, 0, 0, true, List.of(), 0L, 0L, 0L, 0.0);

    @TempDir
    Path dir;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int compare(String... args) {
        return LoopbenchCli.execute(new PrintWriter(out, true), new PrintWriter(err, true),
                java.util.stream.Stream.concat(java.util.stream.Stream.of("compare"), java.util.stream.Stream.of(args))
                        .toArray(String[]::new));
    }

    /** A measure result of repetitions at these rates (p99 400 µs each, give or take a per mille). */
    private static MeasurementResult measured(double... rates) {
        List<RepetitionResult> reps = new ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            long n = Math.round(rates[i]);
            reps.add(new RepetitionResult(i + 1, true, null, null,
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, n, n, rates[i], 2.0 * 1024 * rates[i] / (1 << 20)),
                new RoundTripTimes(new Latency(LatencyMode.MESSAGE, n, 1, 1, 1, 400 + i * 0.4, 1, 1, 1), null, null),
                new ResourceUse(new CpuUsage(1, 1, 100), new MemoryUsage(128L << 20, 130L << 20)),
                        new JvmActivity(QUIET, new GcActivity(1, 2)),
                new Checks(null, null, new Fairness(16, 1000, 1000, 1), null, null, List.of(), List.of()),
                null, null, null));
        }
        Stat any = new Stat(1, 1, 1);
        Summary summary = new Summary(rates.length, any, any, new Summary.LatencySummary(LatencyMode.MESSAGE, any,
                any, any, any, any, any, any), any, any, any, null, any, any, null, null, null, List.of(),
                List.of(), null);
        return new MeasurementResult(RunSpec.builder().repetitions(rates.length).build(), Transport.EPOLL, null,
                reps, summary, true, null, false);
    }

    private Path file(String name, Object value) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, JSON.writeValueAsString(value));
        return p;
    }

    /**
     * 30 repetitions within ±2 %: the gate's intervals assume the machine's noise floor, not these figures' spread, so
     * passing within 5 % takes about this many a side.
     */
    private static final double[] BASE = java.util.stream.IntStream.range(0, 30)
            .mapToDouble(i -> 1e6 * (1 + 0.01 * ((i * 7) % 5 - 2))).toArray();

    @Test
    void aClearRegressionExitsOneAndWritesItsJunitReport() throws Exception {
        Path base = file("base.json", measured(BASE));
        double[] slower = new double[BASE.length];
        for (int i = 0; i < BASE.length; i++) {
            slower[i] = BASE[i] * 0.8;
        }
        Path cand = file("cand.json", measured(slower));
        Path junit = dir.resolve("gate.xml");

        int code = compare(base.toString(), cand.toString(), "--junit", junit.toString());

        assertThat(code).as(err.toString()).isEqualTo(1);
        assertThat(out.toString()).contains("# loopbench regression gate: regressed", "regressed by more than 5 %");
        assertThat(Files.readString(junit)).contains("<testsuite", "failures=\"1\"", "<failure");
    }

    @Test
    void theSameFiguresAgainPassAndTooFewRepetitionsAreUndecided() throws Exception {
        Path base = file("base.json", measured(BASE));
        Path same = file("same.json", measured(BASE));
        assertThat(compare(base.toString(), same.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("**passed** (exit code 0)");

        Path one = file("one.json", measured(1e6));
        Path oneSlower = file("one-slower.json", measured(0.5e6));
        assertThat(compare(one.toString(), oneSlower.toString())).isEqualTo(2);
        assertThat(out.toString()).contains("too few repetitions (1 and 1; at least 2 a side)");
    }

    /**
     * The CI recipe's loop: a pair at a time, the gate asked after each. A halving is established after two pairs,
     * before the pair budget ends; undecided, the gate says whether the budget holds another pair; a budget that
     * cannot decide is refused, naming the least that can.
     */
    @Test
    void askedAfterEveryPairTheGateSaysWhenItIsDecidedAndWhetherThePairBudgetHoldsAnother() throws Exception {
        Path base = dir.resolve("base.jsonl");
        Path cand = dir.resolve("cand.jsonl");
        int[] codes = new int[3];
        for (int pair = 0; pair < 3; pair++) {
            Files.writeString(base, JSON.writeValueAsString(measured(1e6)) + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            Files.writeString(cand, JSON.writeValueAsString(measured(0.5e6 * (1 + 0.01 * pair))) + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            codes[pair] = compare(base.toString(), cand.toString(), "--paired", "--max-pairs", "12");
        }
        assertThat(codes).as(out.toString()).containsExactly(2, 1, 1);
        assertThat(out.toString()).contains("Undecided after 1 of at most 12 pairs: measure another pair");

        assertThat(compare(base.toString(), cand.toString(), "--paired", "--max-pairs", "1")).isEqualTo(3);
        assertThat(err.toString()).contains("--max-pairs: at least 2 (a decision needs 2 pairs), not 1");
    }

    @Test
    void aStoredRunOrMatrixIsFoundByItsIdInTheDataDirectory() throws Exception {
        ObjectNode run = JSON.valueToTree(measured(BASE));
        run.put("id", "r1");
        Files.writeString(dir.resolve("r1.json"), JSON.writeValueAsString(run));
        ObjectNode matrix = JSON.createObjectNode();
        matrix.put("id", "m1");
        matrix.putArray("cases").add(JSON.valueToTree(measured(BASE)));
        Files.createDirectories(dir.resolve("matrices"));
        Files.writeString(dir.resolve("matrices/m1.json"), JSON.writeValueAsString(matrix));

        assertThat(compare("r1", "m1", "--data-dir", dir.toString())).as(err.toString()).isZero();
    }

    @Test
    void resultsAppendedToOneFileJoinIntoOneCaseWhoseRepetitionsPairWithTheOtherSide() throws Exception {
        Path base = dir.resolve("base.jsonl");
        Path cand = dir.resolve("cand.jsonl");
        for (int i = 0; i < BASE.length; i++) {
            // the machine slows by 10 % over the alternated runs: each pair runs at one speed
            double speed = 1 - 0.1 * i / (BASE.length - 1);
            Files.writeString(base, JSON.writeValueAsString(measured(1e6 * speed)) + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            Files.writeString(cand, JSON.writeValueAsString(measured(1e6 * speed * (1 + (i % 2) * 0.002))) + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        }

        assertThat(compare(base.toString(), cand.toString(), "--paired")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("confidence sequence", "back to back");
        assertThat(io.loopbench.gate.ResultFiles.read(base)).singleElement().satisfies(c -> {
            assertThat(c.repetitions()).extracting(RepetitionResult::repetition)
                    .containsExactly(java.util.stream.IntStream.rangeClosed(1, BASE.length).boxed()
                            .toArray(Integer[]::new));
            assertThat(c.ok()).isTrue();
            assertThat(c.summary().repetitions()).isEqualTo(BASE.length);
        });
    }

    @Test
    void aWrongArgumentExitsThreeNamingIt() throws Exception {
        Path base = file("base.json", measured(BASE));
        Path notAResult = file("other.json", List.of(1, 2));

        assertThat(compare(base.toString(), notAResult.toString())).isEqualTo(3);
        assertThat(err.toString()).contains("other.json is not a loopbench result");
        assertThat(compare(base.toString(), base.toString(), "--threshold", "1.5")).isEqualTo(3);
        assertThat(err.toString()).contains("--threshold: between 0 and 1");
        assertThat(compare(base.toString(), "no-such-id", "--data-dir", dir.toString())).isEqualTo(3);
        assertThat(err.toString()).contains("no-such-id: neither a file nor a run or matrix id");
        assertThat(compare(base.toString())).isEqualTo(3);
    }
}
