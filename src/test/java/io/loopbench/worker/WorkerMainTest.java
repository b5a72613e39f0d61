package io.loopbench.worker;

import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.timeline.TimelineInterval;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The worker's side of the protocol, in this JVM: what it reads, what it writes, and when it gives up. */
class WorkerMainTest {

    private static final RunSpec SHORT = RunSpec.builder().clients(2).window(2).warmupMode(WarmupMode.FIXED)
            .warmupSeconds(0.2).seconds(0.4).repetitions(1).transport(Transport.NIO).build();

    @Test
    void aRequestIsMeasuredAndAnsweredWithAPhaseAndIntervalEventsThenTheResultLastEachOnItsOwnLine()
            throws Exception {
        PipedOutputStream service = new PipedOutputStream();
        BufferedReader stdin = new BufferedReader(new InputStreamReader(new PipedInputStream(service),
                StandardCharsets.UTF_8));
        service.write((WorkerProtocol.line(new WorkerRequest(WorkerProtocol.VERSION, SHORT)) + "\n")
                .getBytes(StandardCharsets.UTF_8));
        service.flush();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CountDownLatch gone = new CountDownLatch(1);

        int status = WorkerMain.run(stdin, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), gone::countDown);

        List<WorkerEvent> events = out.toString(StandardCharsets.UTF_8).lines().map(WorkerProtocol::event).toList();
        WorkerEvent.Result result = (WorkerEvent.Result) events.getLast();
        assertThat(status).as(err.toString()).isEqualTo(result.result().ok() ? 0 : 1);
        assertThat(result.result().repetitions()).singleElement()
                .satisfies(r -> assertThat(r.checks().errors().total()).isZero());
        assertThat(events).filteredOn(WorkerEvent.Phase.class::isInstance)
                .extracting(e -> ((WorkerEvent.Phase) e).phase()).containsExactly("warmup", "measured");
        List<TimelineInterval> intervals = events.stream().filter(WorkerEvent.Interval.class::isInstance)
                .map(e -> ((WorkerEvent.Interval) e).interval()).toList();
        var timeline = result.result().repetitions().getFirst().timeline();
        assertThat(intervals).hasSize(timeline.size()).extracting(TimelineInterval::roundTrips)
                .containsExactlyElementsOf(timeline.roundTrips());
        // the lines for people are ./loopbench measure's own
        assertThat(err.toString()).contains("[1/1] warmup 0.200 s", "[1/1] measured 0.400 s",
                ProgressLines.finished(result.result().repetitions().getFirst(), 1)).doesNotContain("interval");
        // the service's end closes: the worker's watch says so and gives up
        assertThat(gone.getCount()).isOne();
        service.close();
        assertThat(gone.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(err.toString()).contains("the service that started this worker is gone");
    }

    /**
     * A forked worker (a JVM of its own, as the service starts it) measures without loading a logging framework, the
     * command line's parser or Spring, all of which its class path holds: the JVM's own class-load log says so, and
     * that it did load Netty's channels (so the log is the measurement's).
     */
    @Test
    void aForkedWorkerLoadsNoLoggingFrameworkNoCommandLineParserAndNoSpring(@TempDir Path dir) throws Exception {
        Path loaded = dir.resolve("classes.log");
        Process worker = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED", "-Xlog:class+load=info:file=" + loaded,
                "-cp", System.getProperty("java.class.path"), WorkerMain.class.getName())
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
        worker.getOutputStream().write((WorkerProtocol.line(new WorkerRequest(WorkerProtocol.VERSION, SHORT)) + "\n")
                .getBytes(StandardCharsets.UTF_8));
        worker.getOutputStream().flush(); // and left open: its end would tell the worker that the service is gone
        List<String> events;
        try (BufferedReader out = worker.inputReader(StandardCharsets.UTF_8)) {
            events = out.lines().toList();
        } finally {
            assertThat(worker.waitFor(60, TimeUnit.SECONDS)).isTrue();
            worker.getOutputStream().close();
        }

        assertThat(worker.exitValue()).as(Files.readString(dir.resolve("stderr.txt"))).isZero();
        assertThat(WorkerProtocol.event(events.getLast())).isInstanceOf(WorkerEvent.Result.class);
        String classes = Files.readString(loaded);
        assertThat(classes).contains("io.netty.channel.", "io.loopbench.worker.WorkerMain ")
                .doesNotContain("ch.qos.logback", "org.apache.logging.log4j", "picocli", "org.springframework");
    }

    @Test
    void aRequestOfAnotherVersionOrNoneOrUnreadableIsRefusedWithStatusTwoAndWhy() {
        assertThat(refusal(WorkerProtocol.line(new WorkerRequest(WorkerProtocol.VERSION + 1, SHORT))))
                .contains("protocol version " + (WorkerProtocol.VERSION + 1) + ", this worker speaks "
                        + WorkerProtocol.VERSION);
        assertThat(refusal("")).contains("unreadable request");
        assertThat(refusal(null)).contains("no request on stdin");
        assertThat(refusal(WorkerProtocol.line(new WorkerRequest(WorkerProtocol.VERSION,
                SHORT.toBuilder().clients(0).build())))).contains("invalid spec").contains("clients");
    }

    private static String refusal(String firstLine) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = WorkerMain.run(new BufferedReader(new StringReader(firstLine == null ? "" : firstLine + "\n")),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                () -> { });
        assertThat(status).isEqualTo(2);
        assertThat(out.size()).as("no event for a refused request").isZero();
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void eventsReadBackAsTheyWereWrittenAndALineOfAnythingElseIsNoEvent() throws IOException {
        WorkerEvent phase = new WorkerEvent.Phase(1, "warmup", 10.0, 412);

        assertThat(WorkerProtocol.line(phase)).startsWith("{\"event\":\"phase\"").doesNotContain("\n");
        assertThat(WorkerProtocol.event(WorkerProtocol.line(phase))).isEqualTo(phase);
        assertThat(WorkerProtocol.request(WorkerProtocol.line(new WorkerRequest(1, SHORT))).spec()).isEqualTo(SHORT);
        assertThatThrownBy(() -> WorkerProtocol.event("[0.012s][warning][os] a JVM's own message"))
                .isInstanceOf(RuntimeException.class);
    }
}
