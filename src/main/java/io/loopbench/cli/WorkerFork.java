package io.loopbench.cli;

import io.loopbench.engine.Failure;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.worker.WorkerEvent;
import io.loopbench.worker.WorkerAotCache;
import io.loopbench.worker.WorkerLauncher;
import io.loopbench.worker.WorkerProtocol;
import io.loopbench.worker.WorkerRequest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One repetition in a fresh JVM for the command line, started as the service starts one ({@link WorkerLauncher}):
 * this JVM's java and flags less its class archive's, the workers' AOT cache (under the directory the system
 * property {@value #AOT_DIRECTORY} names, which {@code ./loopbench} sets to {@code target/worker-aot}; none without
 * it), told the spec on its stdin ({@link WorkerProtocol}), its result read from its stdout, its progress lines
 * passed to this process's stderr. The worker exits when its stdin closes, so none outlives this process however it
 * ends; one past its phases and a grace of {@link #GRACE_SECONDS} is killed. One call at a time.
 */
final class WorkerFork {

    static final int GRACE_SECONDS = 60;
    /** The system property naming the workers' AOT cache's directory. */
    static final String AOT_DIRECTORY = "loopbench.worker.aot-directory";

    private final WorkerLauncher launcher;
    private final WorkerLauncher.Job job;
    private Environment lastEnvironment;

    WorkerFork() {
        List<String> options = workerOptions(ManagementFactory.getRuntimeMXBean().getInputArguments());
        String directory = System.getProperty(AOT_DIRECTORY);
        launcher = new WorkerLauncher(options, directory == null
                ? WorkerAotCache.off("the system property " + AOT_DIRECTORY + " is not set")
                : new WorkerAotCache(Path.of(directory), options, WorkerAotCache.TRAINING_SECONDS));
        job = launcher.job();
    }

    /** The JVM that measured the last repetition; null before one finished. */
    Environment lastEnvironment() {
        return lastEnvironment;
    }

    /** Runs {@code spec} once as repetition {@code index}; a worker that gives no result yields a failed one. */
    RepetitionResult run(RunSpec spec, int index) {
        RunSpec one = spec.toBuilder().repetitions(1).build();
        WorkerAotCache.Start start = job.start(() -> false);
        if (start.note() != null) {
            System.err.println(start.note());
        }
        Process process;
        try {
            process = new ProcessBuilder(launcher.command(one, start))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            process.getOutputStream().write((WorkerProtocol.line(new WorkerRequest(WorkerProtocol.VERSION, one))
                    + "\n").getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush(); // and stays open: the worker exits when it closes
        } catch (IOException e) {
            return failed(one, index, "could not start the worker JVM: " + e);
        }
        AtomicReference<MeasurementResult> result = new AtomicReference<>();
        Thread reader = Thread.ofPlatform().daemon().name("loopbench-worker-stdout").start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("{") && WorkerProtocol.event(line) instanceof WorkerEvent.Result r) {
                        result.set(r.result());
                    }
                }
            } catch (IOException | RuntimeException e) {
                // the result is missing, which the caller reports
            }
        });
        try {
            if (!process.waitFor((long) Math.ceil(one.phaseSeconds()) + GRACE_SECONDS, TimeUnit.SECONDS)) {
                WorkerLauncher.terminate(process);
                return failed(one, index, "the worker ran past its phases and " + GRACE_SECONDS
                        + " s and was killed");
            }
            reader.join(TimeUnit.SECONDS.toMillis(GRACE_SECONDS));
        } catch (InterruptedException e) {
            WorkerLauncher.terminate(process);
            Thread.currentThread().interrupt();
            return null;
        } finally {
            WorkerLauncher.closeQuietly(process);
        }
        MeasurementResult m = result.get();
        if (m == null || m.repetitions().isEmpty()) {
            return failed(one, index, "the worker exited with code " + process.exitValue() + " without a result"
                    + (m == null ? "" : ": " + m.error()) + " (its lines are above)");
        }
        job.measuredWith(start, m.environment().classSharing());
        lastEnvironment = m.environment();
        return m.repetitions().getFirst().withRepetition(index);
    }

    /**
     * The workers' flags: this JVM's, less those of its class archive (the worker starts from the workers' cache),
     * of the virtual threads' carriers (sized per spec), the launcher's common ones and the cache's directory.
     */
    static List<String> workerOptions(List<String> inputArguments) {
        List<String> dropped = List.of("-XX:SharedArchiveFile=", "-XX:+AutoCreateSharedArchive", "-Xlog:cds",
                "-XX:AOTCache=", "-Djdk.virtualThreadScheduler.", "-D" + AOT_DIRECTORY + "=", "-Xlog:disable",
                "-Xlog:all=", "--enable-native-access=", "-XX:+ExitOnOutOfMemoryError");
        return inputArguments.stream().filter(o -> dropped.stream().noneMatch(o::startsWith)).toList();
    }

    private static RepetitionResult failed(RunSpec spec, int index, String why) {
        return RepetitionResult.failed(index, spec.transport(), spec.ioThreads(), new Failure.Worker(why));
    }
}
