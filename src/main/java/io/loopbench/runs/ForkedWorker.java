package io.loopbench.runs;

import io.loopbench.engine.process.Environment;
import io.loopbench.engine.Failure;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.worker.WorkerAotCache;
import io.loopbench.worker.WorkerLauncher;
import io.loopbench.worker.WorkerEvent;
import io.loopbench.worker.WorkerProtocol;
import io.loopbench.worker.WorkerRequest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs one repetition in a fresh JVM ({@link WorkerLauncher}: the service's own java, the configured JVM flags, the
 * workers' AOT cache), told the run's spec with one repetition on its stdin ({@link WorkerProtocol}). The worker's
 * stdout is its events, each handed to the caller as it comes, the result last; its stderr (progress lines, errors) is
 * kept with the run, its last 64 KiB. A worker past its time limit, or whose run is cancelled, is terminated and then
 * killed, so that no process outlives its repetition; and since the service itself may be killed outright, the worker
 * holds the read end of a pipe from the service (its stdin) and exits when that pipe closes, and the record stores its
 * pid for the next start-up to check. Its stderr says whether it started from the AOT cache, and why not. Each
 * {@link #forJob} prepares its workers' start once. One call per thread at a time.
 */
public final class ForkedWorker {

    /**
     * What a repetition produced: its result (failed when a worker did not finish), the JVM that measured, and
     * the worker's stderr (null in-process).
     */
    public record Outcome(RepetitionResult repetition, Environment environment, String stderr) {
    }

    /** The worker's stderr kept with the run: its end, where the failure is. */
    static final int STDERR_KEPT = 64 * 1024;
    /** The worker's result line must be read whole: a larger one fails the repetition. */
    static final int RESULT_LIMIT = 4 * 1024 * 1024;

    private final WorkerLauncher launcher;
    private final int graceSeconds;
    private final WorkerLauncher.Job job;

    public ForkedWorker(List<String> jvmOptions, int graceSeconds, WorkerAotCache aotCache) {
        this(new WorkerLauncher(jvmOptions, aotCache), graceSeconds);
    }

    private ForkedWorker(WorkerLauncher launcher, int graceSeconds) {
        this.launcher = launcher;
        this.graceSeconds = graceSeconds;
        this.job = launcher.job();
    }

    /** The same workers for one job: its class path and cache are looked at once, at its first worker. */
    public ForkedWorker forJob() {
        return new ForkedWorker(launcher, graceSeconds);
    }

    /**
     * @param events  each phase and interval event, as the worker sends it (on a reader thread)
     * @param started told of the worker process once it runs (the caller stores it with the record)
     */
    public Outcome run(RunSpec spec, int index, Transport transport, Consumer<WorkerEvent> events,
                       Consumer<WorkerProcess> started, BooleanSupplier cancelled) {
        RunSpec one = spec.toBuilder().repetitions(1).transport(transport).build();
        Duration limit = Duration.ofMillis((long) ((one.phaseSeconds() + graceSeconds) * 1000));
        LineTail stderr = new LineTail(STDERR_KEPT);
        WorkerAotCache.Start start = job.start(cancelled);
        if (start.note() != null) {
            stderr.add(start.note());
        }
        if (cancelled.getAsBoolean()) {
            return failed(index, transport, spec, new Failure.Cancelled("cancelled"), stderr.toString());
        }
        Process process;
        try {
            process = new ProcessBuilder(launcher.command(one, start)).start();
            // the request, then stdin stays open: it closes when this JVM dies, however it dies, and the worker exits
            process.getOutputStream().write((WorkerProtocol.line(new WorkerRequest(WorkerProtocol.VERSION, one))
                    + "\n").getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
        } catch (IOException e) {
            return failed(index, transport, spec, new Failure.Worker("could not start the worker JVM: " + e),
                    stderr.toString());
        }
        try {
            started.accept(WorkerProcess.of(process.toHandle()));
        } catch (RuntimeException e) {
            WorkerLauncher.terminate(process); // not stored: a restart could not find it, so it must not run
            throw e;
        }
        // Platform threads: a virtual thread blocked reading a pipe holds its carrier, and where the virtual threads'
        // carriers are capped (-Djdk.virtualThreadScheduler.maxPoolSize, as for in-process virtual-threads runs) two
        // readers would stop every other virtual thread of the service until the worker exits.
        Thread errReader = Thread.ofPlatform().daemon().name("loopbench-worker-stderr")
                .start(() -> readLines(process.getErrorStream(), stderr::add));
        AtomicReference<MeasurementResult> result = new AtomicReference<>();
        AtomicReference<String> unread = new AtomicReference<>(); // why a result line could not be taken
        Thread outReader = Thread.ofPlatform().daemon().name("loopbench-worker-stdout")
                .start(() -> readLines(process.getInputStream(), line -> {
                if (line.length() > RESULT_LIMIT) {
                    unread.set("the worker's result was larger than " + RESULT_LIMIT + " characters");
                    return;
                }
                WorkerEvent event;
                try {
                    event = WorkerProtocol.event(line);
                } catch (RuntimeException e) { // not an event: whatever printed it, it belongs with the log
                    stderr.add("[stdout] " + line);
                    return;
                }
                if (event instanceof WorkerEvent.Result r) {
                    result.set(r.result());
                } else {
                    events.accept(event);
                }
            }));
        long deadline = System.nanoTime() + limit.toNanos();
        Failure killedBecause = null;
        try {
            while (!process.waitFor(50, TimeUnit.MILLISECONDS)) {
                if (cancelled.getAsBoolean()) {
                    killedBecause = new Failure.Cancelled("cancelled");
                    break;
                }
                if (System.nanoTime() - deadline > 0) {
                    killedBecause = new Failure.Worker("the worker ran past its limit of " + limit.toSeconds()
                            + " s (warmupSeconds, or warmupMaxSeconds with auto warm-up, + seconds + " + graceSeconds
                            + " s) and was killed");
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killedBecause = new Failure.Cancelled("interrupted");
        }
        if (killedBecause != null) {
            WorkerLauncher.terminate(process);
        }
        WorkerLauncher.closeQuietly(process);
        join(outReader);
        join(errReader);
        String log = stderr.toString();
        MeasurementResult m = result.get();
        if (killedBecause != null) {
            return failed(index, transport, spec, killedBecause, log);
        }
        if (m == null) {
            return failed(index, transport, spec, new Failure.Worker(unread.get() != null ? unread.get()
                    : "the worker exited with code " + process.exitValue() + " without a result: "
                    + WorkerLauncher.lastLine(log)),
                    log);
        }
        if (m.repetitions().isEmpty()) {
            return failed(index, transport, spec, new Failure.Worker("the worker reported no repetition: "
                    + m.error()), log);
        }
        job.measuredWith(start, m.environment().classSharing());
        return new Outcome(m.repetitions().getFirst().withRepetition(index), m.environment(), log);
    }

    /** A repetition without figures; whatever the worker printed is kept with it. */
    private static Outcome failed(int index, Transport transport, RunSpec spec, Failure reason, String stderr) {
        return new Outcome(RepetitionResult.failed(index, transport, spec.ioThreads(), reason), null, stderr);
    }

    private static void readLines(InputStream in, Consumer<String> sink) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                sink.accept(line);
            }
        } catch (IOException e) {
            // the process is gone; whatever was read is kept
        }
    }

    private static void join(Thread t) {
        try {
            t.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
