package io.loopbench.jobs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The one runner thread that executes every measurement — runs and matrices alike — one at a time in arrival
 * order, so that measurements never overlap; the queue in front of it is bounded. Started before and stopped after
 * the services that feed it (lifecycle phase). Thread-safe.
 */
public class JobQueue implements SmartLifecycle {

    /** Something to execute on the runner thread, to its end. */
    public interface Job {
        String id();

        /** Estimated wall time, for Retry-After. */
        double estimatedSeconds();

        void run();
    }

    /**
     * Services that feed the queue start after it and stop before it; all of them start before the web server
     * ({@code DEFAULT_PHASE - 2048}) accepts the first request, and stop after it.
     */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;
    private static final Logger log = LoggerFactory.getLogger(JobQueue.class);

    private final int capacity;
    private final BlockingQueue<Job> queue;
    private volatile Thread runner;
    private volatile boolean running;
    private volatile Job current;
    private volatile Instant currentSince;

    public JobQueue(int capacity) {
        this.capacity = capacity;
        this.queue = new LinkedBlockingQueue<>(capacity);
    }

    public int capacity() {
        return capacity;
    }

    /** Jobs waiting, the running one excluded. */
    public int size() {
        return queue.size();
    }

    /** Queues a job, or returns false when the queue is full. */
    public boolean offer(Job job) {
        return queue.offer(job);
    }

    /** Takes a job that has not started out of the queue. */
    public boolean remove(String id) {
        return queue.removeIf(j -> j.id().equals(id));
    }

    /** Seconds until the running job is expected to end, so that a place frees up (at least 1). */
    public long retryAfterSeconds() {
        Job j = current;
        Instant since = currentSince;
        if (j == null || since == null) {
            return 1;
        }
        double left = j.estimatedSeconds() - Duration.between(since, Instant.now()).toMillis() / 1000.0;
        return Math.max(1, (long) Math.ceil(left));
    }

    @Override
    public synchronized void start() {
        running = true;
        runner = Thread.ofPlatform().name("loopbench-runner").daemon(true).start(this::loop);
    }

    @Override
    public void stop() {
        running = false;
        Thread t = runner;
        if (t != null) {
            t.interrupt();
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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

    private void loop() {
        while (running) {
            Job job;
            try {
                job = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            current = job;
            currentSince = Instant.now();
            try {
                job.run();
            } catch (Throwable t) {
                // whatever a job throws (an Error included), the runner goes on to the next
                log.error("Job {} failed unexpectedly", job.id(), t);
            } finally {
                current = null;
                currentSince = null;
            }
        }
    }
}
