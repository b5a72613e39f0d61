package io.loopbench.runs;

import io.loopbench.worker.WorkerLauncher;
import io.loopbench.jobs.RunStatus;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.StandingEchoServer;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Transport;
import io.loopbench.jobs.JobQueue;
import io.loopbench.jobs.WorkerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.loopbench.runs.RunServiceTest.await;
import static io.loopbench.runs.RunServiceTest.quick;
import static io.loopbench.runs.RunStoreTest.JSON;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the run service survives: an Error out of a run, a cancel racing the runner, a worker left by a killed
 * service, and a target name that resolves elsewhere later or an allow-list that shrank while a run waited.
 */
class RunHardeningTest {

    @TempDir
    Path dir;

    private final List<RunService> services = new ArrayList<>();
    private final List<JobQueue> queues = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    private RunService start(JobQueue jobs, List<String> allowedCidrs, RunPolicy.Resolver resolver,
                             List<RunListener> listeners) {
        RunsProperties p = RunServiceTest.properties(dir, 10);
        p = new RunsProperties(dir, 10, p.limits(), p.worker(), new RunsProperties.Network(allowedCidrs));
        if (!jobs.isRunning()) {
            queues.add(jobs);
        }
        RunService s = new RunService(new RunStore(dir, JSON), p, JSON, listeners, jobs, resolver);
        s.start();
        services.add(s);
        return s;
    }

    private static JobQueue running(JobQueue q) {
        q.start();
        return q;
    }

    @AfterEach
    void stop() throws Exception {
        services.forEach(RunService::stop);
        queues.forEach(JobQueue::stop);
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    @Test
    void anErrorOutOfARunEndsItFailedAndTheRunnerGoesOnToTheNextRun() {
        AtomicInteger running = new AtomicInteger();
        RunListener failsOnce = r -> {
            if (r.status() == RunStatus.RUNNING && r.progress() != null && running.getAndIncrement() == 0) {
                throw new AssertionError("an Error no RuntimeException handler catches");
            }
        };
        JobQueue jobs = running(new JobQueue(10));
        queues.add(jobs);
        RunService s = start(jobs, List.of(), InetAddress::getAllByName, List.of(failsOnce));

        RunRecord first = s.submit(quick().build(), io.loopbench.runs.Isolation.IN_PROCESS);
        RunRecord second = s.submit(quick().build(), io.loopbench.runs.Isolation.IN_PROCESS);

        RunRecord failed = await(s, first.id(), r -> r.status().isFinished(), Duration.ofSeconds(30));
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.error()).startsWith("internal error: java.lang.AssertionError");
        RunRecord next = await(s, second.id(), r -> r.status().isFinished(), Duration.ofSeconds(30));
        RunServiceTest.assertMeasuredToTheEnd(next, 2);
    }

    @Test
    void aCancelThatRacesTheRunnerTakingTheRunOffTheQueueStillCancelsIt() {
        // remove() fails as it does when the runner has just taken the job and waits to begin it
        JobQueue takenAlready = new JobQueue(10) {
            @Override
            public boolean remove(String id) {
                return false;
            }
        };
        RunService s = start(takenAlready, List.of(), InetAddress::getAllByName, List.of());
        RunRecord queued = s.submit(quick().build(), io.loopbench.runs.Isolation.IN_PROCESS);
        Thread.ofVirtual().start(() -> {
            sleep(300); // the runner begins while cancel() waits for the outcome
            takenAlready.start();
        });

        RunRecord cancelled = s.cancel(queued.id());

        assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(cancelled.repetitions()).isEmpty();
        assertThat(cancelled.startedAt()).isNull();
    }

    @Test
    void onStartAWorkerLeftByAKilledServiceIsStoppedBeforeAnythingIsQueuedAgain() throws Exception {
        // a live worker measuring for a minute, recorded with a run the service was running when it was killed
        Process orphan = new ProcessBuilder(WorkerLauncher.javaCommand(), WorkerLauncher.MARKER, "-cp",
                System.getProperty("java.class.path"), io.loopbench.cli.LoopbenchCli.class.getName(), "measure", "--warmup", "0", "--seconds", "60", "--repetitions", "1",
                "--clients", "1", "--window", "1").redirectErrorStream(true).redirectOutput(
                ProcessBuilder.Redirect.DISCARD).start();
        closeables.add(orphan::destroyForcibly);
        RunStore store = new RunStore(dir, JSON);
        RunRecord wasRunning = RunStoreTest.queued("killed", Instant.now().minusSeconds(5))
                .started(Instant.now().minusSeconds(4), Transport.NIO)
                .withWorker(WorkerProcess.of(orphan.toHandle()));
        store.save(wasRunning);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (wasRunning.worker().find().isEmpty() && System.nanoTime() < deadline) {
            sleep(20); // until the JVM has replaced the launcher's helper in the new process
        }
        assertThat(wasRunning.worker().find()).isPresent();
        // the same pid with another start time is some other process: never touched
        assertThat(new WorkerProcess(orphan.pid(), Instant.EPOCH).find()).isEmpty();

        RunService s = start(new JobQueue(10), List.of(), InetAddress::getAllByName, List.of());

        assertThat(orphan.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(s.get("killed").status()).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(s.get("killed").worker()).isNull();
    }

    @Test
    void aTargetIsResolvedOnceAndTheRunConnectsToTheCheckedAddressWhateverTheNameResolvesToLater()
            throws Exception {
        StandingEchoServer echo = StandingEchoServer.start(new StandingEchoServer.Config(Protocol.TCP,
                InetAddress.getLoopbackAddress(), 0, 1, Transport.NIO, 0, null, null, TlsProvider.JDK));
        closeables.add(echo::close);
        AtomicInteger lookups = new AtomicInteger();
        // a rebinding name: loopback when checked, a documentation address (not allowed) ever after
        RunPolicy.Resolver rebinding = host -> new InetAddress[] {lookups.getAndIncrement() == 0
                ? InetAddress.getLoopbackAddress() : InetAddress.getByName("198.51.100.7")};
        JobQueue jobs = running(new JobQueue(10));
        queues.add(jobs);
        RunService s = start(jobs, List.of(), rebinding, List.of());

        RunRecord queued = s.submit(quick().target("rebind.test:" + echo.port()).build(),
                io.loopbench.runs.Isolation.IN_PROCESS);
        RunRecord done = await(s, queued.id(), r -> r.status().isFinished(), Duration.ofSeconds(30));

        assertThat(queued.targetAddress()).isEqualTo("127.0.0.1:" + echo.port());
        assertThat(done.spec().target()).isEqualTo("rebind.test:" + echo.port());
        RunServiceTest.assertMeasuredToTheEnd(done, 2);
        assertThat(echo.counts().bytes()).isPositive();
        assertThat(lookups).hasValue(1);
    }

    @Test
    void aQueuedRunWhoseTargetIsNoLongerAllowedWhenItStartsFailsWithoutSendingAnything() {
        RunPolicy.Resolver docs = host -> new InetAddress[] {InetAddress.getByName("192.0.2.7")};
        RunService before = start(new JobQueue(10), List.of("192.0.2.0/24"), docs, List.of());
        RunRecord queued = before.submit(quick().target("bench.test:7").build(),
                io.loopbench.runs.Isolation.IN_PROCESS);
        assertThat(queued.targetAddress()).isEqualTo("192.0.2.7:7");
        before.stop();

        // restarted with an empty allow-list: the queued run is queued again, then refused as it starts
        JobQueue jobs = running(new JobQueue(10));
        queues.add(jobs);
        RunService after = start(jobs, List.of(), host -> {
            throw new AssertionError("a queued run's target must not be resolved again");
        }, List.of());
        RunRecord refused = await(after, queued.id(), r -> r.status().isFinished(), Duration.ofSeconds(30));

        assertThat(refused.status()).isEqualTo(RunStatus.FAILED);
        assertThat(refused.error()).contains("bench.test:7 (192.0.2.7:7) is no longer allowed")
                .contains("loopbench.network.allowed-cidrs is empty");
        assertThat(refused.repetitions()).isEmpty();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
