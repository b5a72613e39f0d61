package io.loopbench.cli;

import io.loopbench.engine.Failure;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.loop.VirtualThreads;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.worker.WorkerEvent;
import io.loopbench.worker.WorkerMain;
import io.loopbench.worker.WorkerProtocol;
import io.loopbench.worker.WorkerRequest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One repetition in a fresh JVM for the command line: {@link WorkerMain} started with this JVM's java, flags and
 * class path (so from the same class archive), told the spec on its stdin ({@link WorkerProtocol}), its result read
 * from its stdout, its progress lines passed to this process's stderr. The worker exits when its stdin closes, so none
 * outlives this process however it ends; one past its phases and a grace of {@link #GRACE_SECONDS} is killed.
 * One call at a time.
 */
final class WorkerFork {

    static final int GRACE_SECONDS = 60;

    private Environment lastEnvironment;

    /** The JVM that measured the last repetition; null before one finished. */
    Environment lastEnvironment() {
        return lastEnvironment;
    }

    /** Runs {@code spec} once as repetition {@code index}; a worker that gives no result yields a failed one. */
    RepetitionResult run(RunSpec spec, int index) {
        RunSpec one = spec.toBuilder().repetitions(1).build();
        Process process;
        try {
            process = new ProcessBuilder(command(one)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
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
                process.destroyForcibly();
                return failed(one, index, "the worker ran past its phases and " + GRACE_SECONDS
                        + " s and was killed");
            }
            reader.join(TimeUnit.SECONDS.toMillis(GRACE_SECONDS));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return null;
        } finally {
            try {
                process.getOutputStream().close();
            } catch (IOException ignored) {
                // it has exited or been killed
            }
        }
        MeasurementResult m = result.get();
        if (m == null || m.repetitions().isEmpty()) {
            return failed(one, index, "the worker exited with code " + process.exitValue() + " without a result"
                    + (m == null ? "" : ": " + m.error()) + " (its lines are above)");
        }
        lastEnvironment = m.environment();
        return m.repetitions().getFirst().withRepetition(index);
    }

    /** java [this JVM's flags] [virtual threads' carriers] -cp [this class path] WorkerMain. */
    private static List<String> command(RunSpec spec) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!option.startsWith("-Djdk.virtualThreadScheduler.")) {
                cmd.add(option);
            }
        }
        if (spec.execution() == Execution.VIRTUAL_THREADS) {
            cmd.addAll(VirtualThreads.jvmOptions(spec.ioThreads()));
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(WorkerMain.class.getName());
        return cmd;
    }

    private static RepetitionResult failed(RunSpec spec, int index, String why) {
        return RepetitionResult.failed(index, spec.transport(), spec.ioThreads(), new Failure.Worker(why));
    }
}
