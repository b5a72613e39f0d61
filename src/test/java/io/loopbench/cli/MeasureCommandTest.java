package io.loopbench.cli;

import io.loopbench.engine.spec.AddressFamily;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.SpecField;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.WindowMode;
import io.loopbench.engine.latency.LatencyHistograms;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MeasureCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return LoopbenchCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void printsTheResultAsJsonOnStdoutAndOneProgressLinePerPhaseOnStderr() {
        int code = run("measure", "--protocol", "udp", "--payload", "64", "--clients", "2", "--window", "1",
                "--io-model", "sharded", "--io-threads", "2", "--warmup", "0.2", "--warmup-mode", "fixed", "--seconds", "0.6",
                "--repetitions", "2");

        assertThat(code).as(err.toString()).isZero();
        JsonNode json = MeasureCommand.Json.MAPPER.readTree(out.toString());
        assertThat(json.get("ok").asBoolean()).isTrue();
        assertThat(json.at("/spec/protocol").asString()).isEqualTo("udp");
        assertThat(json.at("/spec/ioModel").asString()).isEqualTo("sharded");
        assertThat(json.at("/spec/payloadBytes").asInt()).isEqualTo(64);
        assertThat(json.at("/spec/windowMode").asString()).isEqualTo("sliding");
        assertThat(json.get("repetitions").size()).isEqualTo(2);
        assertThat(json.at("/summary/roundTripsPerSecond/median").asDouble()).isPositive();
        assertThat(json.at("/repetitions/0/latency/mode").asString()).isEqualTo("message");
        assertThat(json.at("/repetitions/0/timeline").isNull()).as("the timeline only with --timeline").isTrue();
        assertThat(err.toString().lines().filter(l -> l.contains("] warmup ") || l.contains("] measured ")))
                .hasSize(4);
    }

    @Test
    void theHistogramLogReadsBackWithHdrHistogramsOwnReaderIntervalByInterval(@TempDir Path dir)
            throws FileNotFoundException {
        Path log = dir.resolve("rtt.hlog");
        int code = run("measure", "--clients", "2", "--window", "2", "--io-threads", "1", "--warmup", "0.3",
                "--warmup-mode", "fixed", "--seconds", "0.6", "--repetitions", "1", "--timeline",
                "--timeline-interval-ms", "50", "--histogram-log", log.toString());

        JsonNode rep = MeasureCommand.Json.MAPPER.readTree(out.toString()).at("/repetitions/0");
        // a stall on a busy machine fails the repetition, truly, and its log is still written: the subject here
        if (code != 0) {
            assertThat(code).as(err.toString()).isEqualTo(1);
            assertThat(rep.get("error").asString()).as(err.toString()).matches("(stalled|unfair): .*");
        }
        rep.get("errors").properties().forEach(e -> assertThat(e.getValue().asLong()).as(e.getKey()).isZero());
        JsonNode timeline = rep.get("timeline");
        int warmupIntervals = timeline.get("warmupIntervals").asInt();
        assertThat(timeline.get("intervalMillis").asInt()).isEqualTo(50);
        HistogramLogReader reader = new HistogramLogReader(log.toFile());
        List<Histogram> warmup = new ArrayList<>();
        List<Histogram> measured = new ArrayList<>();
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
            ("warmup".equals(h.getTag()) ? warmup : measured).add((Histogram) h);
        }
        assertThat(warmup).hasSize(warmupIntervals);
        assertThat(measured).hasSize(timeline.get("roundTrips").size() - warmupIntervals).hasSize(12);
        Histogram all = LatencyHistograms.create();
        for (int i = 0; i < measured.size(); i++) {
            Histogram h = measured.get(i);
            all.add(h);
            assertThat(h.getTotalCount()).isEqualTo(timeline.get("roundTrips").get(warmupIntervals + i).asLong());
            assertThat(h.getMaxValue() / 1000.0).isEqualTo(timeline.get("maxUs").get(warmupIntervals + i).asDouble());
        }
        // the intervals together are the repetition's histogram, exactly
        assertThat(all).isEqualTo(LatencyHistograms.decode(rep.get("latencyHistogram").asString()));
        assertThat(all.getTotalCount()).isEqualTo(rep.get("messages").asLong());
    }

    @Test
    void invalidInputExitsTwoNamingEveryFieldAndRangeAndRunsNothing() {
        int code = run("measure", "--payload", "8", "--clients", "2000", "--seconds", "0");

        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString())
                .contains("--payload: payloadBytes = 8 is out of range: allowed 16 … 65,507")
                .contains("--clients: clients = 2000 is out of range: allowed 1 … 1,024")
                .contains("--seconds: seconds = 0.0 is out of range: allowed more than 0 and at most 3,600");
    }

    @Test
    void unknownEnumValueOrFlagExitsTwo() {
        assertThat(run("measure", "--io-model", "owned")).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid value for option '--io-model': 'owned' is not one of shared, sharded");
        assertThat(run("measure", "--bogus", "1")).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown option").contains("'--bogus'");
    }

    @Test
    void aFailedRunStillPrintsItsJsonAndExitsOne() {
        // a 1 ms UDP loss timeout at window 64 under load declares slow datagrams lost: the run must say it failed
        int code = run("measure", "--protocol", "udp", "--clients", "64", "--window", "64", "--payload", "16384",
                "--loss-timeout-ms", "1", "--warmup", "0", "--seconds", "0.3", "--repetitions", "1");

        assertThat(code).isEqualTo(1);
        JsonNode json = MeasureCommand.Json.MAPPER.readTree(out.toString());
        assertThat(json.get("ok").asBoolean()).isFalse();
        assertThat(json.get("error").asString()).startsWith("repetition 1 failed:");
        assertThat(json.get("summary").isNull()).isTrue();
        assertThat(err.toString()).contains("loopbench: repetition 1 failed");
    }

    /**
     * Every spec field has its flag, with the help, range, values and default its declaration gives, and the value
     * a flag is given reaches the spec: the command line covers the whole spec, as the API does.
     */
    @Test
    void everySpecFieldHasItsFlagWithItsDeclaredHelpAndReachesTheSpec() {
        MeasureCommand command = new MeasureCommand();
        CommandLine cli = new CommandLine(command);
        LoopbenchCli.registerLabels(cli);
        List<String> args = new ArrayList<>();
        Map<SpecField, Object> given = new LinkedHashMap<>();
        for (SpecField f : SpecField.values()) {
            CommandLine.Model.OptionSpec option = cli.getCommandSpec().findOption(f.flag());
            assertThat(option).as(f.flag()).isNotNull();
            assertThat(option.descriptionKey()).isEqualTo(f.field());
            String help = String.join(" ", option.description());
            assertThat(help).contains(f.help(), "Default: " + f.defaultText());
            if (f.range() != null) {
                assertThat(help).contains(f.range().text());
            }
            if (!f.labels().isEmpty()) {
                assertThat(option.paramLabel()).isEqualTo(String.join("|", f.labels()));
            }
            Object value = sample(f);
            given.put(f, value);
            args.add(f.flag());
            args.add(value instanceof Labeled l ? l.label() : String.valueOf(value));
        }
        cli.parseArgs(args.toArray(String[]::new));
        RunSpec spec = command.spec();
        for (Map.Entry<SpecField, Object> e : given.entrySet()) {
            assertThat(component(spec, e.getKey())).as(e.getKey().flag()).isEqualTo(e.getValue());
        }
    }

    /**
     * docs/cli.md's table of flags: a row per spec field, with its flag, its range in the same words, every value
     * and the default.
     */
    @Test
    void theDocsTableOfFlagsAgreesWithTheSpecFields() throws IOException {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("docs/cli.md"))) {
            List<String> cells = Arrays.stream(line.split("\\|", -1)).map(String::strip).toList();
            if (line.startsWith("| `--") && cells.size() == 6 && cells.get(2).startsWith("`")) {
                rows.put(cells.get(2).replace("`", ""), cells);
            }
        }
        for (SpecField f : SpecField.values()) {
            List<String> row = rows.get(f.field());
            assertThat(row).as(f.field() + " in docs/cli.md").isNotNull();
            assertThat(row.get(1)).startsWith("`" + f.flag());
            assertThat(row.get(4).replace("`", "")).as(f.field()).isEqualTo(f.defaultText());
            if (f.range() != null) {
                assertThat(row.get(3)).as(f.field()).contains(f.range().text());
            }
            f.labels().forEach(label -> assertThat(row.get(3)).as(f.field()).contains("`" + label + "`"));
        }
    }

    /** A value other than the default, inside the field's range. */
    private static Object sample(SpecField f) {
        if (!f.labels().isEmpty()) {
            return f.type().getEnumConstants()[f.type().getEnumConstants().length - 1];
        }
        if (f.type() == String.class) {
            return f == SpecField.TARGET ? "127.0.0.1:7" : "/etc/loopbench/certs";
        }
        return f.type() == Integer.class ? (Object) (int) f.range().max() : (Object) f.range().max();
    }

    private static Object component(RunSpec spec, SpecField f) {
        try {
            return RunSpec.class.getRecordComponents()[f.ordinal()].getAccessor().invoke(spec);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
