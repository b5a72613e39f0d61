package io.loopbench.worker;

import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.process.ClassSharing;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.RunSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The one way a measuring JVM is started, for the service's runs and matrices and for the command line's race: this
 * JVM's java, the workers' flags and the common ones, the class path and class archive the {@link WorkerAotCache}
 * prepares (from the AOT cache when there is one, however this JVM was started: from classes, from jars, or from
 * Spring Boot's executable jar, which it extracts), and {@link WorkerMain}. A {@link Job} prepares the start once,
 * at its first worker, and reuses it for the job's other workers. Threads: a launcher may be shared; a job belongs to
 * one thread at a time.
 */
public final class WorkerLauncher {

    /**
     * The first option of every worker's command line, by which a restarted service knows its workers: early, since
     * the operating system shows only the first 4 KiB of a command line, which a class path fills.
     */
    public static final String MARKER = "-Dloopbench.worker=forked";
    /** The second option of a worker's command line: the pid of the process that started it. */
    public static final String SERVICE_PID = "-Dloopbench.service.pid=";
    /**
     * Flags of every worker JVM (and of the AOT cache's training): native transports may load their libraries, and
     * the JVM's own warnings and errors (such as why it refused an AOT cache) go to stderr, since stdout is the
     * worker's events.
     */
    public static final List<String> COMMON_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED", "-Xlog:disable",
            "-Xlog:all=warning:stderr", "-XX:+ExitOnOutOfMemoryError");

    private final List<String> jvmOptions;
    private final WorkerAotCache aotCache;

    /**
     * @param jvmOptions the workers' flags (the cache's training uses the same: the JVM accepts a cache only under the
     *                   flags it was trained with)
     */
    public WorkerLauncher(List<String> jvmOptions, WorkerAotCache aotCache) {
        this.jvmOptions = List.copyOf(jvmOptions);
        this.aotCache = aotCache;
    }

    /** The workers of one job: their start is prepared at the first one. */
    public Job job() {
        return new Job();
    }

    /** The launches of one job. */
    public final class Job {

        private WorkerAotCache.Start start;

        /**
         * How this job's workers start: prepared at the first call (training the cache if there is none, unless
         * {@code cancelled}), then the same, unless the JVM refused the cache since.
         */
        public WorkerAotCache.Start start(BooleanSupplier cancelled) {
            if (start == null || start.aotCache() && !aotCache.usable()) {
                WorkerAotCache.Start prepared = aotCache.prepare(System.getProperty("java.class.path"), cancelled);
                // a training's note is the first worker's; why there is no cache, every worker's
                start = prepared.aotCache() ? prepared.withoutNote() : prepared;
                return prepared;
            }
            return start;
        }

        /**
         * What the JVM that measured says of its class archive: where {@code start} was from the cache and the JVM
         * refused it, the job's later workers start plainly (and the next service start trains it anew).
         */
        public void measuredWith(WorkerAotCache.Start start, ClassSharing sharing) {
            if (start.aotCache() && sharing == ClassSharing.AOT_CACHE_REFUSED) {
                aotCache.refused();
            }
        }
    }

    /** java MARKER SERVICE_PID [flags] [class archive] [virtual threads' carriers] -cp CLASSPATH WorkerMain. */
    public List<String> command(RunSpec one, WorkerAotCache.Start start) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaCommand());
        cmd.add(MARKER);
        cmd.add(SERVICE_PID + ProcessHandle.current().pid()); // which process started it, as ps shows it
        cmd.addAll(jvmOptions);
        cmd.addAll(COMMON_OPTIONS);
        cmd.addAll(start.jvmOptions());
        if (one.execution() == Execution.VIRTUAL_THREADS) {
            cmd.addAll(VirtualThreads.jvmOptions(one.ioThreads()));
        }
        if (start.bootJar()) {
            // the executable jar itself (its extraction failed): its classes are nested, so Boot's launcher starts it
            cmd.add("-Dloader.main=" + WorkerMain.class.getName());
            cmd.addAll(List.of("-cp", start.classpath(), "org.springframework.boot.loader.launch.PropertiesLauncher"));
        } else {
            cmd.addAll(List.of("-cp", start.classpath(), WorkerMain.class.getName()));
        }
        return cmd;
    }

    /** This JVM's java launcher, which every worker uses too. */
    public static String javaCommand() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** Terminates the process and its descendants, then kills what is left after 2 s. */
    public static void terminate(Process process) {
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

    /** Closes the process's stdin, which a worker watches: it exits when it closes. */
    public static void closeQuietly(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // the worker has gone; its stdin went with it
        }
    }

    /** The last line of a process's output, or "(no output)". */
    public static String lastLine(String log) {
        String trimmed = log.strip();
        int nl = trimmed.lastIndexOf('\n');
        return trimmed.isEmpty() ? "(no output)" : trimmed.substring(nl + 1);
    }
}
