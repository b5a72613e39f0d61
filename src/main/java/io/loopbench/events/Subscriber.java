package io.loopbench.events;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * One open stream of {@link EventStreams} and its sender. Thread-safe: anyone {@link #offer offers} (never blocking);
 * only its sender, a task on the senders' pool with at most one per subscriber at a time, writes to its emitter, so
 * that its events stay in order (see {@link EventStreams} for who owns what).
 *
 * @param <T> the record type
 */
final class Subscriber<T> {

    private static final Logger log = LoggerFactory.getLogger(Subscriber.class);

    /** A queued event; a heartbeat has no name. */
    private record Event<T>(String name, T data) {
        boolean isFinished() {
            return EventStreams.FINISHED.equals(name);
        }
    }

    private final String key;
    private final SseEmitter emitter;
    private final int capacity;
    private final BlockingQueue<Event<T>> pending;
    private final Executor senders;
    /** Takes it out of the registry and frees its place; idempotent. */
    private final Consumer<Subscriber<T>> deregister;
    private final BiFunction<String, T, SseEmitter.SseEventBuilder> event;
    /** Whether a sender task holds this subscriber (at most one does). */
    private final AtomicBoolean draining = new AtomicBoolean();
    /** Whether {@code finished} has been queued: it goes out once, and nothing after it. */
    private final AtomicBoolean finishedQueued = new AtomicBoolean();
    /** No more events: ended, dropped or timed out; its sender completes the emitter. */
    private volatile boolean closed;
    /** The emitter has been completed (by its sender). */
    private volatile boolean ended;

    /**
     * @param capacity   the most events waiting to be written; one more drops it
     * @param event      an event of a name and a record, as written
     */
    Subscriber(String key, SseEmitter emitter, int capacity, Executor senders,
               Consumer<Subscriber<T>> deregister, BiFunction<String, T, SseEmitter.SseEventBuilder> event) {
        this.key = key;
        this.emitter = emitter;
        this.capacity = capacity;
        this.pending = new ArrayBlockingQueue<>(capacity);
        this.senders = senders;
        this.deregister = deregister;
        this.event = event;
    }

    /** The record it follows. */
    String key() {
        return key;
    }

    /**
     * Queues an event ({@code name} null: a heartbeat) for its sender; drops the subscriber if its queue is full.
     * Never blocks.
     */
    void offer(String name, T data) {
        Event<T> e = new Event<>(name, data);
        if (closed || finishedQueued.get()) {
            return;
        }
        if (e.isFinished() && !finishedQueued.compareAndSet(false, true)) {
            return;
        }
        if (!pending.offer(e)) {
            drop();
            return;
        }
        schedule();
    }

    /** No more events: its sender ends the stream once it is free. */
    void close() {
        closed = true;
        schedule();
    }

    /** The container timed the stream out: completed here, as Spring MVC expects. */
    void timedOut() {
        closed = true;
        emitter.complete();
    }

    private void drop() {
        deregister.accept(this);
        if (!closed) {
            closed = true;
            pending.clear();
            log.info("Dropped an event subscriber of {}: {} events were waiting for it (a client that does not read)",
                    key, capacity);
        }
        schedule(); // its sender ends the stream once it is free
    }

    private void schedule() {
        if (draining.compareAndSet(false, true)) {
            try {
                senders.execute(this::drain);
            } catch (RejectedExecutionException e) {
                draining.set(false); // closing
            }
        }
    }

    /** The sender: writes the queued events in order, then ends the stream once it is closed. */
    private void drain() {
        while (true) {
            try {
                drainQueue();
            } catch (RuntimeException e) {
                log.warn("SSE sender of {} failed", key, e);
            } finally {
                draining.set(false);
            }
            // an offer or a drop that came while this task held the flag left the work to it
            if (ended || (!closed && pending.isEmpty()) || !draining.compareAndSet(false, true)) {
                return;
            }
        }
    }

    private void drainQueue() {
        Event<T> e;
        while (!closed && (e = pending.poll()) != null) {
            try {
                emitter.send(e.name() == null ? SseEmitter.event().comment(EventStreams.HEARTBEAT)
                        : event.apply(e.name(), e.data()));
            } catch (IOException | RuntimeException failure) {
                // the client has gone, or the stream has ended (timed out)
                log.debug("Event stream of {} ended: {}", key, failure.toString());
                deregister.accept(this);
                closed = true;
                ended = true;
                try {
                    emitter.completeWithError(failure);
                } catch (RuntimeException ignored) {
                    // already complete
                }
                return;
            }
            if (e.isFinished()) {
                deregister.accept(this);
                closed = true;
            }
        }
        if (closed && !ended) {
            ended = true;
            try {
                emitter.complete();
            } catch (RuntimeException ignored) {
                // the container has already ended the request
            }
        }
    }
}
