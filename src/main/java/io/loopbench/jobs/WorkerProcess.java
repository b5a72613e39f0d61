package io.loopbench.jobs;

import io.loopbench.worker.WorkerLauncher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A forked worker process as a record stores it while the worker measures: enough to find it again after the
 * service was killed, and to be sure it is that worker (a pid alone may have been reused) before stopping it.
 * Immutable.
 *
 * @param pid       the worker's process id
 * @param startedAt when the operating system says it started
 */
public record WorkerProcess(long pid, Instant startedAt) {

    private static final Logger log = LoggerFactory.getLogger(WorkerProcess.class);
    public static WorkerProcess of(ProcessHandle process) {
        return new WorkerProcess(process.pid(), process.info().startInstant().orElse(null));
    }

    /** The live process this record names, if it is still running and is that worker. */
    public Optional<ProcessHandle> find() {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(p -> startedAt != null
                && startedAt.equals(p.info().startInstant().orElse(null))
                && p.info().commandLine().map(c -> c.contains(" " + WorkerLauncher.MARKER + " ")).orElse(false));
    }

    /** Kills the worker if it is still alive (a service killed outright could not); true when it had to. */
    public boolean stopIfAlive() {
        Optional<ProcessHandle> p = find();
        p.ifPresent(h -> {
            log.warn("Stopping worker {} (started {}), left running by a service that stopped without ending it",
                    pid, startedAt);
            h.destroyForcibly();
            try {
                h.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                log.error("Worker {} did not exit after SIGKILL: {}", pid, e.toString());
            }
        });
        return p.isPresent();
    }
}
