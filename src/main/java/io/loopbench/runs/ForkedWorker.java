package io.loopbench.runs;

import io.loopbench.engine.process.ClassSharing;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.Failure;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.spec.Transport;
import io.loopbench.jobs.WorkerProcess;
import io.loopbench.worker.WorkerEvent;
import io.loopbench.worker.WorkerMain;
import io.loopbench.worker.WorkerProtocol;
import io.loopbench.worker.WorkerRequest;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.jar.JarFile;

/**
 * Runs one repetition in a fresh JVM: {@link WorkerMain} with the service's own java and classpath and the configured
 * JVM flags, told the run's spec with one repetition on its stdin ({@link WorkerProtocol}). The worker's stdout is its
 * events, each handed to the caller as it comes, the result last; its stderr (progress lines, errors) is kept with the
 * run, its last 64 KiB. A worker past its time limit, or whose run
 * is cancelled, is terminated and then killed, so that no process outlives its repetition; and since the service
 * itself may be killed outright, the worker holds the read end of a pipe from the service (its stdin) and exits
 * when that pipe closes, and the record stores its pid for the next start-up to check. A worker starts from the
 * {@link WorkerAotCache} when there is one (training it first when there is none yet), otherwise plainly, and its
 * stderr says which and why; from the executable jar it always starts plainly, since its classes are nested jars,
 * which an AOT cache cannot hold. One call per thread at a time.
 */
public final class ForkedWorker {

    /**
     * What a repetition produced: its result (failed when a worker did not finish), the JVM that measured, and
     * the worker's stderr (null in-process).
     */
    public record Outcome(RepetitionResult repetition, Environment environment, String stderr) {
    }

    /**
     * Flags of every worker JVM (and of the AOT cache's training): native transports may load their libraries, and
     * the JVM's own warnings and errors (such as why it refused an AOT cache) go to stderr, since stdout is the
     * worker's events.
     */
    static final List<String> COMMON_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED", "-Xlog:disable",
            "-Xlog:all=warning:stderr", "-XX:+ExitOnOutOfMemoryError");
    /** The second option of a worker's command line: the pid of the service that started it. */
    public static final String SERVICE_PID = "-Dloopbench.service.pid=";
    /** The worker's stderr kept with the run: its end, where the failure is. */
    static final int STDERR_KEPT = 64 * 1024;
    /** The worker's result line must be read whole: a larger one fails the repetition. */
    static final int RESULT_LIMIT = 4 * 1024 * 1024;

    private final List<String> jvmOptions;
    private final int graceSeconds;
    private final WorkerAotCache aotCache;

    public ForkedWorker(List<String> jvmOptions, int graceSeconds, WorkerAotCache aotCache) {
        this.jvmOptions = List.copyOf(jvmOptions);
        this.graceSeconds = graceSeconds;
        this.aotCache = aotCache;
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
        String classpath = System.getProperty("java.class.path");
        boolean bootJar = isBootJar(classpath);
        WorkerAotCache.Start start = bootJar
                ? new WorkerAotCache.Start(classpath, List.of(), false, "loopbench: worker started without an AOT "
                        + "cache: the service runs from an executable jar, whose nested jars an AOT cache cannot hold")
                : aotCache.prepare(classpath, cancelled);
        if (start.note() != null) {
            stderr.add(start.note());
        }
        if (cancelled.getAsBoolean()) {
            return failed(index, transport, spec, new Failure.Cancelled("cancelled"), stderr.toString());
        }
        Process process;
        try {
            process = new ProcessBuilder(command(one, start, bootJar)).start();
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
            terminate(process); // not stored: a restart could not find it, so it must not run
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
            terminate(process);
        }
        closeQuietly(process);
        join(outReader);
        join(errReader);
        String log = stderr.toString();
        MeasurementResult m = result.get();
        if (killedBecause != null) {
            return failed(index, transport, spec, killedBecause, log);
        }
        if (m == null) {
            return failed(index, transport, spec, new Failure.Worker(unread.get() != null ? unread.get()
                    : "the worker exited with code " + process.exitValue() + " without a result: " + lastLine(log)),
                    log);
        }
        if (m.repetitions().isEmpty()) {
            return failed(index, transport, spec, new Failure.Worker("the worker reported no repetition: "
                    + m.error()), log);
        }
        if (start.aotCache() && m.environment().classSharing() == ClassSharing.AOT_CACHE_REFUSED) {
            aotCache.refused();
        }
        return new Outcome(m.repetitions().getFirst().withRepetition(index), m.environment(), log);
    }

    /** java [flags] -cp <classpath> io.loopbench.worker.WorkerMain, or via Boot's launcher. */
    private List<String> command(RunSpec one, WorkerAotCache.Start start, boolean bootJar) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaCommand());
        cmd.add(WorkerProcess.MARKER);
        cmd.add(SERVICE_PID + ProcessHandle.current().pid()); // which service started it, as ps shows it
        cmd.addAll(jvmOptions);
        cmd.addAll(COMMON_OPTIONS);
        cmd.addAll(start.jvmOptions());
        if (one.execution() == Execution.VIRTUAL_THREADS) {
            cmd.addAll(VirtualThreads.jvmOptions(one.ioThreads()));
        }
        if (bootJar) {
            // Running from the executable jar: its classes are nested, so let Boot's launcher start the worker.
            cmd.add("-Dloader.main=" + WorkerMain.class.getName());
            cmd.addAll(List.of("-cp", start.classpath(), "org.springframework.boot.loader.launch.PropertiesLauncher"));
        } else {
            cmd.addAll(List.of("-cp", start.classpath(), WorkerMain.class.getName()));
        }
        return cmd;
    }

    /** This JVM's java launcher, which every worker uses too. */
    static String javaCommand() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private static boolean isBootJar(String classpath) {
        if (classpath.contains(File.pathSeparator) || !classpath.endsWith(".jar")) {
            return false;
        }
        try (JarFile jar = new JarFile(classpath)) {
            return jar.getEntry("BOOT-INF/classes/") != null;
        } catch (IOException e) {
            return false;
        }
    }

    static void terminate(Process process) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
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

    static void closeQuietly(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // the worker has gone; its stdin went with it
        }
    }

    private static void join(Thread t) {
        try {
            t.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String lastLine(String log) {
        String trimmed = log.strip();
        int nl = trimmed.lastIndexOf('\n');
        return trimmed.isEmpty() ? "(no output)" : trimmed.substring(nl + 1);
    }
}
