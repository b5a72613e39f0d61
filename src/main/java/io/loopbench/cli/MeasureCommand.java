package io.loopbench.cli;

import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.worker.ProgressLines;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.loopbench.engine.timeline.TimelineInterval;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramLogWriter;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code measure}: runs one measurement and prints its result as JSON on stdout, one progress line per phase on
 * stderr. Exit codes: 0 ok, 1 the run failed validation, 2 invalid input. Flag names follow arknet's
 * ({@code --payload}, {@code --warmup}, {@code --io-model}, …); an omitted flag takes the spec's default.
 */
@Command(name = "measure", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run one echo measurement and print its result as JSON.",
        resourceBundle = "io.loopbench.cli.SpecFieldHelp")
public final class MeasureCommand implements Callable<Integer> {

    /** The result's writer; in a holder so that Jackson loads when the result is written, not before the first echo. */
    static final class Json {
        static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

        private Json() {
        }
    }

    /** The flag that adds each repetition's timeline to the JSON (the service's workers always give it). */
    @Option(names = "--timeline", description = "Add each repetition's timeline (warm-up and measured phase in "
            + "intervals, with GC and JIT events) to the JSON.")
    boolean timeline;
    @Option(names = "--histogram-log", paramLabel = "FILE", description = "Write every interval's RTT histogram to "
            + "FILE in HdrHistogram's interval log format (nanoseconds; warm-up intervals tagged warmup), readable by "
            + "HdrHistogram's HistogramLogReader and HistogramLogProcessor.")
    Path histogramLog;
    @CommandLine.Mixin
    LoadOptions load;
    @CommandLine.Mixin
    LayoutOptions layout;

    /** The spec a parsed command line describes; omitted flags take their defaults. */
    RunSpec spec() {
        return load.spec(layout);
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec commandSpec;

    @Override
    public Integer call() {
        PrintWriter err = commandSpec.commandLine().getErr();
        PrintWriter out = commandSpec.commandLine().getOut();
        RunSpec spec = spec();
        Measurement measurement;
        try {
            measurement = Measurement.of(spec);
        } catch (InvalidSpecException e) {
            for (Violation v : e.violations()) {
                err.println("loopbench: " + LoadOptions.flags(v.field()) + ": " + v.message());
            }
            err.flush();
            return 2;
        }
        MeasurementResult result;
        try (IntervalLog log = histogramLog == null ? null : new IntervalLog(histogramLog)) {
            result = measurement.progress(new StderrProgress(err, spec.repetitions(),
                    spec.warmupMode() == WarmupMode.AUTO, log)).run();
        } catch (IOException e) {
            err.println("loopbench: --histogram-log " + histogramLog + ": " + e.getMessage());
            err.flush();
            return 2;
        }
        if (!timeline) {
            result = new MeasurementResult(result.spec(), result.transport(), result.environment(),
                    result.repetitions().stream().map(RepetitionResult::withoutTimeline).toList(), result.summary(),
                    result.ok(), result.error(), result.cancelled());
        }
        out.println(Json.MAPPER.writeValueAsString(result));
        out.flush();
        if (!result.ok()) {
            err.println("loopbench: " + result.error());
            err.flush();
        }
        return result.ok() ? 0 : 1;
    }

    /**
     * HdrHistogram's interval log of every repetition's intervals (RTTs in nanoseconds, shown in ms; the warm-up's
     * tagged {@code warmup}, so that HdrHistogram's tools leave them out unless asked), written as they close. Used by
     * the measuring thread only.
     */
    private static final class IntervalLog implements AutoCloseable {
        private final PrintStream out;
        private final HistogramLogWriter writer;

        IntervalLog(Path file) throws IOException {
            out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8);
            writer = new HistogramLogWriter(out);
            long now = System.currentTimeMillis();
            writer.outputComment("loopbench measure: RTT in nanoseconds, one histogram per timeline interval");
            writer.outputLogFormatVersion();
            writer.outputStartTime(now);
            writer.setBaseTime(now);
            writer.outputLegend();
        }

        void interval(TimelineInterval interval, AbstractHistogram rtt) {
            if (interval.phase().equals(TimelineInterval.WARMUP)) {
                rtt.setTag("warmup");
            }
            writer.outputIntervalHistogram(rtt);
        }

        @Override
        public void close() throws IOException {
            out.close();
            if (out.checkError()) {
                throw new IOException("could not write the histogram log");
            }
        }
    }

    /**
     * One line per phase and per finished repetition, the latter with its warm-up, failure and warnings; with a
     * {@code log}, each interval's histogram there.
     */
    private record StderrProgress(PrintWriter err, int repetitions, boolean auto, IntervalLog log)
            implements io.loopbench.engine.ProgressListener {
        @Override
        public void intervalRecorded(int repetition, TimelineInterval interval, AbstractHistogram rtt) {
            if (log != null) {
                log.interval(interval, rtt);
            }
        }

        @Override
        public void phaseStarted(int repetition, String phase, double seconds) {
            err.println(ProgressLines.phase(repetition, repetitions, phase, seconds, auto));
            err.flush();
        }

        @Override
        public void repetitionFinished(RepetitionResult r) {
            err.println(ProgressLines.finished(r, repetitions));
            err.flush();
        }
    }
}
