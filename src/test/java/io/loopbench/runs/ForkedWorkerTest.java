package io.loopbench.runs;

import io.loopbench.SystemTest;
import io.loopbench.engine.EngineTestSupport;
import io.loopbench.engine.process.ClassSharing;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.timeline.TimelineInterval;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.worker.WorkerAotCache;
import io.loopbench.worker.WorkerEvent;
import io.loopbench.worker.WorkerLauncher;
import io.loopbench.worker.WorkerMain;
import io.loopbench.worker.WorkerProtocol;
import io.loopbench.worker.WorkerRequest;
import io.netty.handler.ssl.OpenSsl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

@SystemTest
@org.junit.jupiter.api.parallel.Execution(ExecutionMode.CONCURRENT) // its load runs in processes of its own: beside the other system tests
class ForkedWorkerTest {

    private static final WorkerAotCache NO_CACHE = WorkerAotCache.off("not in this test");
    /**
     * A short measurement in a fresh JVM: one 0.1 s warm-up round, 0.4 s measured (four timeline intervals). What
     * these tests check is how the worker started and that it measured and validated every echo, not whether a
     * cold JVM's first hundreds of ms judged it fair (see {@link #assertMeasured}).
     */
    private static final RunSpec SHORT = RunSpec.builder().clients(2).window(2).warmupMode(WarmupMode.FIXED)
            .warmupSeconds(0.1).seconds(0.4).repetitions(1).build();

    @ParameterizedTest(name = "ioThreads {0}")
    @ValueSource(ints = {1, 3})
    void aVirtualThreadsWorkerHasExactlyIoThreadsCarriers(int ioThreads) {
        ForkedWorker worker = new ForkedWorker(List.of(), 30, NO_CACHE);
        // window 1, so that no end monopolises a carrier (see EngineTestSupport.quick(Execution))
        RunSpec spec = RunSpec.builder().execution(Execution.VIRTUAL_THREADS).ioThreads(ioThreads).clients(6)
                .window(1).warmupSeconds(0.1).warmupMode(WarmupMode.FIXED).seconds(0.6).repetitions(1).build();

        ForkedWorker.Outcome o = worker.run(spec, 1, Transport.JDK, line -> { }, w -> { }, () -> false);

        // with 3 carriers on a busy 2-core machine a hiccup may fail it as unfair, which is not this test's subject
        assertThat(o.repetition().checks().errors()).as(o.repetition().error()).isNotNull();
        EngineTestSupport.assertValidatedByEveryClient(o.repetition(), spec.clients());
        assertThat(o.repetition().setup().transport()).isEqualTo(Transport.JDK);
        assertThat(o.repetition().setup().eventLoops()).isEqualTo(ioThreads);
    }

    @Test
    void aWorkersTimelineComesWithItsResultAndIntervalByIntervalToItsCallerButNotIntoItsLog() {
        ForkedWorker worker = new ForkedWorker(List.of(), 30, NO_CACHE);
        List<WorkerEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();

        ForkedWorker.Outcome o = worker.run(SHORT, 1, Transport.NIO, events::add, w -> { }, () -> false);

        assertMeasured(o);
        var timeline = o.repetition().timeline();
        assertThat(timeline).as(o.stderr()).isNotNull();
        List<TimelineInterval> intervals = events.stream().filter(WorkerEvent.Interval.class::isInstance)
                .map(e -> ((WorkerEvent.Interval) e).interval()).toList();
        assertThat(intervals).hasSize(timeline.size());
        assertThat(intervals.getLast().phase()).isEqualTo(TimelineInterval.MEASURED);
        assertThat(events).filteredOn(WorkerEvent.Phase.class::isInstance)
                .extracting(e -> ((WorkerEvent.Phase) e).phase()).containsExactly("warmup", "measured");
        assertThat(o.stderr()).doesNotContain("interval").contains("[1/1] measured");
    }

    @Test
    void aWorkerPastItsTimeLimitIsKilledAndItsRepetitionFailsWithTheReasonAndItsStderr() {
        // The JVM waits for a debugger forever: a worker that hangs, deterministically.
        ForkedWorker worker = new ForkedWorker(
                List.of("-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0"), 1, NO_CACHE);
        RunSpec spec = RunSpec.builder().warmupSeconds(0.0).seconds(0.5).repetitions(1).build();
        long started = System.nanoTime();

        AtomicReference<WorkerProcess> process = new AtomicReference<>();
        ForkedWorker.Outcome o = worker.run(spec, 3, Transport.NIO, line -> { }, process::set, () -> false);

        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(o.repetition().ok()).isFalse();
        assertThat(o.repetition().repetition()).isEqualTo(3);
        assertThat(o.repetition().error()).contains("ran past its limit of 1 s");
        assertThat(o.repetition().throughput().roundTripsPerSecond()).isNull();
        assertThat(o.stderr()).contains("Listening for transport dt_socket");
        assertThat(seconds).isBetween(1.4, 10.0);
        // this worker, not every child of the test JVM: other system tests' processes run beside this class
        assertThat(process.get()).isNotNull();
        assertThat(process.get().find()).as("the worker killed").isEmpty();
    }

    /**
     * While a worker measures, the service's other virtual threads run: the worker's pipes are read on platform
     * threads. A virtual thread blocked reading a pipe holds its carrier, and this JVM caps the carriers at 2 (as a
     * service sized for in-process virtual-threads runs does): two such readers stopped every other virtual thread,
     * the cluster's among them, until the worker exited. Told here by the intervals the worker had sent when a
     * virtual thread started at its measured phase's beginning first ran: all of them, had it waited.
     */
    @Test
    void theServicesOtherVirtualThreadsRunWhileAWorkerMeasures() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                Integer.getInteger("jdk.virtualThreadScheduler.maxPoolSize", Integer.MAX_VALUE) <= 2,
                "skipped: the carriers are not capped at 2 in this JVM, so two blocked readers could not hold them all");
        ForkedWorker worker = new ForkedWorker(List.of(), 30, NO_CACHE);
        RunSpec spec = RunSpec.builder().clients(1).window(1).warmupMode(WarmupMode.FIXED).warmupSeconds(0.0)
                .seconds(2.0).repetitions(1).build();
        java.util.concurrent.atomic.AtomicInteger intervals = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CompletableFuture<Integer> ranAfter = new java.util.concurrent.CompletableFuture<>();
        ForkedWorker.Outcome o = worker.run(spec, 1, Transport.NIO, event -> {
            if (event instanceof WorkerEvent.Phase p && p.phase().equals("measured")) {
                Thread.ofVirtual().start(() -> ranAfter.complete(intervals.get()));
            } else if (event instanceof WorkerEvent.Interval) {
                intervals.incrementAndGet();
            }
        }, w -> { }, () -> false);

        assertThat(o.repetition().throughput().messages()).as(o.repetition().error()).isPositive();
        int total = o.repetition().timeline().roundTrips().size();
        assertThat(total).isGreaterThan(10);
        assertThat(ranAfter.get(60, java.util.concurrent.TimeUnit.SECONDS))
                .as("intervals sent before the virtual thread ran, of " + total).isLessThan(total);
    }

    @Test
    void theWorkerIsToldToItsCallerWhileItRunsAndExitsWhenItsParentsPipeCloses() throws Exception {
        ForkedWorker worker = new ForkedWorker(List.of(), 30, NO_CACHE);
        RunSpec long_ = RunSpec.builder().clients(1).window(1).warmupMode(WarmupMode.FIXED).warmupSeconds(0.0)
                .seconds(60.0).repetitions(1).build();
        List<io.loopbench.jobs.WorkerProcess> told = new ArrayList<>();

        // the caller stops it through the process it was told of, as a restarted service stops an orphan
        ForkedWorker.Outcome o = worker.run(long_, 1, Transport.NIO, event -> {
            if (event instanceof WorkerEvent.Phase p && p.phase().equals("measured")) {
                assertThat(told.getFirst().stopIfAlive()).isTrue();
            }
        }, told::add, () -> false);

        assertThat(told).singleElement().satisfies(w -> assertThat(w.startedAt()).isNotNull());
        assertThat(o.repetition().ok()).isFalse();
        assertThat(o.repetition().error()).contains("exited with code 137");

        // started as the service starts it; its stdin, the service's end of the pipe, closes as if it were killed
        List<String> command = List.of(WorkerLauncher.javaCommand(), WorkerLauncher.MARKER,
                "-cp", System.getProperty("java.class.path"), WorkerMain.class.getName());
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try (var err = new java.io.BufferedReader(new java.io.InputStreamReader(p.getErrorStream()))) {
            p.getOutputStream().write((WorkerProtocol.line(new WorkerRequest(WorkerProtocol.VERSION,
                    long_.toBuilder().transport(Transport.NIO).build())) + "\n").getBytes());
            p.getOutputStream().flush();
            String line = err.readLine();
            while (line != null && !line.contains("measured")) {
                line = err.readLine();
            }
            assertThat(line).as("the worker reached its measured phase").isNotNull();
            p.getOutputStream().close();
            assertThat(p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(3);
            assertThat(err.readLine()).contains("the service that started this worker is gone");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void aWorkersStreamsAreKeptToTheirEndWithinTheirLimit() {
        LineTail tail = new LineTail(21); // three lines of 7 characters, newline included
        for (int i = 0; i < 10; i++) {
            tail.add("line " + i);
        }
        assertThat(tail.toString()).isEqualTo("[earlier output dropped]\nline 7\nline 8\nline 9\n");
        LineTail whole = new LineTail(100);
        whole.add("{");
        whole.add("}");
        assertThat(whole.toString()).isEqualTo("{\n}\n");
        assertThat(WorkerLauncher.COMMON_OPTIONS).contains("-XX:+ExitOnOutOfMemoryError");
    }

    @Test
    void aWorkerTrainsTheAotCacheOnceStartsFromItAndFallsBackWhenTheJvmRefusesACorruptOne(@TempDir Path dir)
            throws Exception {
        List<String> options = List.of("-Xms32m", "-Xmx256m", "-XX:+UseSerialGC");
        WorkerAotCache cache = new WorkerAotCache(dir, options, 0.4);
        ForkedWorker worker = new ForkedWorker(options, 30, cache);

        ForkedWorker.Outcome trained = worker.run(SHORT, 1, Transport.NIO, event -> { }, w -> { }, () -> false);

        assertMeasured(trained);
        assertThat(trained.environment().classSharing()).isEqualTo(ClassSharing.AOT_CACHE);
        assertThat(trained.environment().jvmArguments()).contains("-XX:AOTCache=" + dir.resolve("worker.aot"));
        assertThat(trained.stderr()).startsWith("loopbench: trained the workers' AOT cache in ");
        assertThat(RunStoreTest.JSON.readTree(dir.resolve("trained.json").toFile()).get("trainingSeconds").asDouble())
                .isPositive();

        Files.writeString(dir.resolve("worker.aot"), "not an AOT cache");
        ForkedWorker.Outcome refused = worker.run(SHORT, 2, Transport.NIO, line -> { }, w -> { }, () -> false);

        assertMeasured(refused);
        assertThat(refused.environment().classSharing()).isEqualTo(ClassSharing.AOT_CACHE_REFUSED);
        assertThat(refused.stderr()).doesNotContain("trained").contains("[aot]");

        ForkedWorker.Outcome plain = worker.run(SHORT, 3, Transport.NIO, line -> { }, w -> { }, () -> false);

        assertMeasured(plain);
        assertThat(plain.environment().classSharing()).isEqualTo(ClassSharing.CDS);
        assertThat(plain.stderr()).startsWith("loopbench: worker started without an AOT cache: the JVM refused");
        assertThat(dir.resolve("trained.json")).doesNotExist();
    }

    @Test
    void aWorkerWhoseAotCacheCannotBeTrainedStartsPlainlyAndSaysWhy(@TempDir Path dir) {
        // The JVM refuses to record a cache with -Xshare:off; the workers' own start does not mind it.
        List<String> options = List.of("-Xshare:off");
        ForkedWorker worker = new ForkedWorker(options, 30,
                new WorkerAotCache(dir, options, 0.4));

        ForkedWorker.Outcome o = worker.run(SHORT, 1, Transport.NIO, line -> { }, w -> { }, () -> false);

        assertMeasured(o);
        assertThat(o.environment().classSharing()).isEqualTo(ClassSharing.NONE);
        assertThat(o.stderr()).startsWith("loopbench: worker started without an AOT cache: its training exited "
                + "with code 1: Option AOTCacheOutput cannot be used");
    }

    @Test
    void aWorkerGivenAMissingAotCacheFileStillMeasuresAndItsResultSaysSo(@TempDir Path dir) {
        ForkedWorker worker = new ForkedWorker(
                List.of("-XX:AOTCache=" + dir.resolve("missing.aot")), 30, NO_CACHE);

        ForkedWorker.Outcome o = worker.run(SHORT, 1, Transport.NIO, line -> { }, w -> { }, () -> false);

        assertMeasured(o);
        assertThat(o.environment().classSharing()).isEqualTo(ClassSharing.AOT_CACHE_REFUSED);
        assertThat(o.stderr()).contains("[error][aot]");
    }

    @Test
    void theDefaultTlsProviderIsNettysRuleInTheWorkerAndTheJdksWhereOpenSslCannotLoadSayingWhy() {
        RunSpec tcps = SHORT.toBuilder().protocol(Protocol.TCPS).build();

        ForkedWorker.Outcome plain = new ForkedWorker(List.of(), 30, NO_CACHE)
                .run(tcps, 1, Transport.NIO, line -> { }, w -> { }, () -> false);
        ForkedWorker.Outcome noOpenSsl = new ForkedWorker(
                List.of("-Dio.netty.handler.ssl.noOpenSsl=true"), 30, NO_CACHE)
                .run(tcps, 1, Transport.NIO, line -> { }, w -> { }, () -> false);

        assertMeasured(plain);
        assertThat(plain.repetition().setup().tls().provider()).isEqualTo(OpenSsl.isAvailable() ? "openssl" : "jdk");
        assertMeasured(noOpenSsl);
        assertThat(noOpenSsl.repetition().setup().tls().provider()).isEqualTo("jdk");
        assertThat(noOpenSsl.environment().tlsProviders()).containsEntry("jdk", null);
        assertThat(noOpenSsl.environment().tlsProviders().get("openssl")).contains("noOpenSsl");
    }

    /**
     * The worker ran and validated every echo. Whether it passed is not asked: a second of load in a JVM this fresh,
     * on a machine others share, may fail the fairness check, which says nothing about how the JVM started.
     */
    private static void assertMeasured(ForkedWorker.Outcome o) {
        assertThat(o.repetition().throughput().roundTripsPerSecond()).as(o.stderr()).isNotNull().isPositive();
        assertThat(o.repetition().checks().errors().total()).as(o.stderr()).isZero();
    }
}
