package io.loopbench.jobs;

import io.loopbench.engine.Failure;
import io.loopbench.engine.RunControl;
import io.loopbench.storage.JsonFileStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.UnaryOperator;

/**
 * What runs and matrices share: records kept in a {@link JsonFileStore}, executed one at a time on the
 * {@link JobQueue}; queued ones can be cancelled at once and running ones within 5 s; on start, records found
 * running become interrupted and queued ones are queued again; on stop, the running one is stopped and ends
 * interrupted. Every change is stored before it is announced. A {@link Throwable} out of a record's execution ends
 * that record failed and leaves the runner running. Services start before the web server accepts requests and stop
 * after it (lifecycle phase), so no request meets a runner that is not ready.
 *
 * <p>Thread-safety: state transitions take this object's lock; the runner thread owns the running measurement,
 * which other threads reach only through the volatile cancellation flag and its {@link RunControl}.
 *
 * @param <T> the record type
 */
public abstract class QueuedService<T> implements SmartLifecycle {

    /** After the job queue, before the web server (which starts at {@code DEFAULT_PHASE - 2048}). */
    public static final int PHASE = JobQueue.PHASE + 1024;
    private static final Logger log = LoggerFactory.getLogger(QueuedService.class);

    protected final JsonFileStore<T> store;
    protected final JobQueue jobs;
    private final String noun;
    private final Function<T, String> id;
    private final Function<T, RunStatus> status;
    private final ToDoubleFunction<T> estimatedSeconds;
    private final Function<T, Instant> createdAt;

    private volatile boolean running;
    private volatile String currentId;
    private volatile boolean currentCancelled;
    private volatile RunControl currentControl;
    /** Records cancelled while the runner had taken them off the queue but not begun them (under this lock). */
    private final Set<String> cancelledBeforeBegin = new HashSet<>();

    /**
     * @param noun how errors name a record ("run", "matrix")
     */
    protected QueuedService(JsonFileStore<T> store, JobQueue jobs, String noun, Function<T, String> id,
                            Function<T, RunStatus> status, ToDoubleFunction<T> estimatedSeconds,
                            Function<T, Instant> createdAt) {
        this.store = store;
        this.jobs = jobs;
        this.noun = noun;
        this.id = id;
        this.status = status;
        this.estimatedSeconds = estimatedSeconds;
        this.createdAt = createdAt;
    }

    /** The record ended {@code cancelled} before it ran. */
    protected abstract T cancelledWhileQueued(T record);

    /** The record ended {@code interrupted}: the service stopped while it ran. */
    protected abstract T interrupted(T record);

    /** The forked worker measuring the record, as stored while it runs; null when there is none. */
    protected abstract WorkerProcess worker(T record);

    /** The record ended {@code failed} by an unexpected error of the service. */
    protected abstract T failed(T record, Failure failure);

    /** Tells listeners (SSE, metrics) of a stored change. */
    protected abstract void announce(T record);

    /** Executes a queued record, on the runner thread; see {@link #begin} and {@link #end}. */
    protected abstract void execute(String id);

    public T get(String id) {
        return store.find(id).orElseThrow(() -> new RunExceptions.NotFound(noun, id));
    }

    /**
     * Stores a new record, then queues it (so that a queued job always has its record); when the queue is full, the
     * record is removed again and {@link RunExceptions.QueueFull} thrown. Both under this lock, which begin() takes
     * before it reads the record.
     */
    protected synchronized void enqueue(T record) {
        store.save(record);
        if (!jobs.offer(job(record))) {
            store.delete(id.apply(record));
            throw new RunExceptions.QueueFull(jobs.capacity(), jobs.retryAfterSeconds());
        }
        announce(record);
    }

    /**
     * Cancels a queued record at once, or a running one within 5 s (what it measured is kept).
     *
     * @return the record as it is when the call returns
     */
    public T cancel(String id) {
        synchronized (this) {
            T r = get(id);
            if (status.apply(r).isFinished()) {
                throw new RunExceptions.Conflict(noun + " " + id + " is already " + status.apply(r).label());
            }
            if (status.apply(r) == RunStatus.QUEUED) {
                if (jobs.remove(id)) {
                    return endCancelledWhileQueued(r);
                }
                // the runner has taken it off the queue and waits for this lock to begin it
                cancelledBeforeBegin.add(id);
            }
            if (id.equals(currentId)) {
                stopCurrent();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!status.apply(get(id)).isFinished() && System.nanoTime() < deadline) {
            sleep(20);
        }
        return get(id);
    }

    /** Under this lock: stores and announces a queued record's end, cancelled before it ran. */
    private T endCancelledWhileQueued(T r) {
        T cancelled = cancelledWhileQueued(r);
        store.save(cancelled);
        announce(cancelled);
        return cancelled;
    }

    /** Removes a finished record. */
    public synchronized void delete(String id) {
        T r = get(id);
        if (!status.apply(r).isFinished()) {
            throw new RunExceptions.Conflict(noun + " " + id + " is " + status.apply(r).label()
                    + "; cancel it before deleting it");
        }
        store.delete(id);
    }

    @Override
    public synchronized void start() {
        List<T> requeue = new ArrayList<>();
        for (T r : store.all()) {
            if (status.apply(r) == RunStatus.RUNNING) {
                // a worker left by a service killed outright must not measure alongside what runs next
                WorkerProcess w = worker(r);
                if (w != null) {
                    w.stopIfAlive();
                }
                store.save(interrupted(r));
                log.warn("{} {} was running when the service stopped: marked interrupted", noun, id.apply(r));
            } else if (status.apply(r) == RunStatus.QUEUED) {
                requeue.add(r);
            }
        }
        running = true;
        requeue.sort(Comparator.comparing(createdAt));
        for (T r : requeue) {
            if (!jobs.offer(job(r))) {
                log.error("{} {} could not be queued again: the queue is full", noun, id.apply(r));
            }
        }
    }

    /** Stops the running measurement (it ends interrupted); the job queue, stopped after, joins its thread. */
    @Override
    public void stop() {
        synchronized (this) {
            running = false;
            stopCurrent();
        }
        String id = currentId;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (id != null && id.equals(currentId) && System.nanoTime() < deadline) {
            sleep(20);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /**
     * On the runner thread: takes the queued record, makes it current and stores {@code started} of it; null when
     * it is no longer queued or the service is stopping.
     */
    protected T begin(String id, RunControl control, UnaryOperator<T> started) {
        T r;
        synchronized (this) {
            r = store.find(id).orElse(null);
            if (r == null || status.apply(r) != RunStatus.QUEUED || !running) {
                return null;
            }
            if (cancelledBeforeBegin.remove(id)) {
                endCancelledWhileQueued(r);
                return null;
            }
            currentId = id;
            currentCancelled = false;
            currentControl = control;
            r = started.apply(r);
            store.save(r);
        }
        announce(r);
        return r;
    }

    /** On the runner thread: stores the outcome {@link #outcome} gives (under the lock), then announces it. */
    protected T end(String id, UnaryOperator<T> outcome) {
        T done;
        synchronized (this) {
            done = outcome.apply(get(id));
            store.save(done);
            currentId = null;
            currentControl = null;
        }
        announce(done);
        return done;
    }

    /** Read-modify-write of a stored record under the lock; listeners hear of it after the write. */
    protected T update(String id, UnaryOperator<T> change) {
        T r;
        synchronized (this) {
            r = change.apply(get(id));
            store.save(r);
        }
        announce(r);
        return r;
    }

    /** Whether the running record should stop: cancelled, or the service is stopping. */
    protected boolean stopRequested() {
        return currentCancelled || !running;
    }

    /** The status a stopped record ends with: interrupted when the service is stopping, else cancelled. */
    protected RunStatus stoppedStatus() {
        return running ? RunStatus.CANCELLED : RunStatus.INTERRUPTED;
    }

    private void stopCurrent() {
        currentCancelled = true;
        RunControl control = currentControl;
        if (control != null) {
            control.cancel();
        }
    }

    private JobQueue.Job job(T record) {
        String key = id.apply(record);
        double estimate = estimatedSeconds.applyAsDouble(record);
        return new JobQueue.Job() {
            @Override
            public String id() {
                return key;
            }

            @Override
            public double estimatedSeconds() {
                return estimate;
            }

            @Override
            public void run() {
                try {
                    execute(key);
                } catch (Throwable t) {
                    endFailed(key, t);
                    if (t instanceof VirtualMachineError) {
                        throw t; // the runner logs it and goes on, though the JVM may not
                    }
                }
            }
        };
    }

    /** Ends the running record failed after an unexpected error, so that it does not stay running forever. */
    private void endFailed(String key, Throwable t) {
        log.error("{} {} failed unexpectedly", noun, key, t);
        T done = null;
        synchronized (this) {
            try {
                T r = store.find(key).orElse(null);
                if (r != null && !status.apply(r).isFinished()) {
                    done = failed(r, Failure.Internal.of(t));
                    store.save(done);
                }
            } catch (RuntimeException e) {
                log.error("{} {} could not be marked failed", noun, key, e);
            } finally {
                cancelledBeforeBegin.remove(key);
                currentId = null;
                currentControl = null;
            }
        }
        if (done != null) {
            announce(done);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
