package io.loopbench.events;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Server-Sent Events per record (a run or a matrix): a {@code progress} event on every change and at least once a
 * second while it is running, then one {@code finished} event with the outcome, after which the stream ends. A
 * subscriber that comes after the end gets the {@code finished} event at once; one that comes as the record ends gets
 * it exactly once too (it registers first, then reads the stored record again). Every stream also gets an SSE comment
 * ({@code :heartbeat}) every {@link EventStreamsProperties#heartbeat()}, and ends after
 * {@link EventStreamsProperties#timeout()}.
 *
 * <p>Bounded: at most {@link EventStreamsProperties#maxSubscribersPerRecord()} streams per record and
 * {@link EventStreamsProperties#maxSubscribers()} in all (counted across every instance sharing one {@link Slots});
 * one more is refused with {@link TooManySubscribers}. Each subscriber has a queue of at most
 * {@link EventStreamsProperties#queueCapacity()} events waiting to be written; a subscriber whose queue is full when
 * an event comes (a client that stopped reading) is dropped: deregistered at once, its stream ended by its sender
 * once that is free. Events are never coalesced, so a subscriber that keeps up sees every one.
 *
 * <p>Thread-safe. Who owns what:
 * <ul>
 * <li>{@link #changed} (called on the runner thread, and on request threads under the service's lock), the ticker
 *     thread (progress once a second, heartbeats) and {@link #subscribe} only <em>enqueue</em>: none of them ever
 *     writes to a socket or takes an emitter's write lock, so a client can never hold up a measurement or the API.
 * <li>Each subscriber's emitter is written (sent to, completed) by its sender, save for the last two cases below:
 *     a task on a pool of platform daemon threads ({@code loopbench-sse-sender-*}), at most one task per subscriber
 *     at a time, so its events stay in order. Platform threads, not virtual threads: a blocked write must not take a
 *     carrier of the JDK's virtual-thread scheduler, which in-process {@code virtual-threads} measurements run on. A
 *     sender blocked on a client that stopped reading stays blocked until the container's write timeout (Tomcat's
 *     connection timeout, 60 s by default); the subscriber left the registry, and freed its place, when its queue
 *     was full.
 * <li>The registry (subscribers by record, and the places they hold) is guarded by one lock, held only to change or
 *     copy it, never while writing or calling out.
 * <li>The emitter's completion, error and timeout callbacks (container threads) deregister; the timeout one also
 *     completes the stream there, as Spring MVC expects (waiting for the emitter's write lock should a send be
 *     under way).
 * <li>A subscriber to a record that has already ended gets its {@code finished} event on the request thread, before
 *     the emitter is handed to Spring MVC, where the send is buffered and cannot block; it takes no place.
 * </ul>
 *
 * @param <T> the record type
 */
public class EventStreams<T> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EventStreams.class);

    public static final String PROGRESS = "progress";
    public static final String FINISHED = "finished";
    /** The comment of a heartbeat ({@code :heartbeat} on the wire). */
    public static final String HEARTBEAT = "heartbeat";

    private final Function<T, String> id;
    private final Predicate<T> finished;
    private final Predicate<T> active;
    private final BiFunction<T, Instant, T> asOf;
    private final Function<String, Optional<T>> lookup;
    private final EventStreamsProperties settings;
    private final Slots slots;

    private final Object lock = new Object();
    /** Open subscribers by record id; guarded by {@link #lock}. */
    private final Map<String, Set<Subscriber<T>>> subscribers = new HashMap<>();
    private final Map<String, T> running = new ConcurrentHashMap<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("loopbench-sse-ticker").daemon(true).factory());
    private final ExecutorService senders = Executors.newCachedThreadPool(
            Thread.ofPlatform().name("loopbench-sse-sender-", 0).daemon(true).factory());

    /**
     * @param finished whether a record has reached its end
     * @param active   whether a record is running (and so ticks once a second)
     * @param asOf     the record with its progress times brought up to an instant
     * @param lookup   the stored record of an id, as it is now
     * @param settings the bounds
     * @param slots    the places of all subscribers, shared by every instance that counts towards one total
     */
    public EventStreams(Function<T, String> id, Predicate<T> finished, Predicate<T> active,
                        BiFunction<T, Instant, T> asOf, Function<String, Optional<T>> lookup,
                        EventStreamsProperties settings, Slots slots) {
        this.id = id;
        this.finished = finished;
        this.active = active;
        this.asOf = asOf;
        this.lookup = lookup;
        this.settings = settings;
        this.slots = slots;
        ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
        long heartbeat = settings.heartbeat().toMillis();
        ticker.scheduleAtFixedRate(this::heartbeat, heartbeat, heartbeat, TimeUnit.MILLISECONDS);
    }

    /**
     * A stream of the record's events, starting with its state now.
     *
     * @throws TooManySubscribers when the record, or the service, has as many open streams as allowed
     */
    public SseEmitter subscribe(T record) {
        String key = id.apply(record);
        T latest = latest(key, record);
        SseEmitter emitter = newEmitter(settings.timeout().toMillis());
        if (finished.test(latest)) {
            // not yet handed to Spring MVC: the send is buffered until the response starts, so it cannot block
            try {
                emitter.send(event(FINISHED, key, latest));
                emitter.complete();
            } catch (IOException | RuntimeException e) {
                emitter.completeWithError(e);
            }
            return emitter;
        }
        Subscriber<T> s = new Subscriber<>(key, emitter, settings.queueCapacity(), senders, this::deregister,
                (name, data) -> event(name, key, data));
        emitter.onCompletion(() -> deregister(s));
        emitter.onError(e -> deregister(s));
        emitter.onTimeout(() -> {
            deregister(s);
            s.timedOut();
        });
        register(s);
        // The record may have ended after the caller read it and before this subscriber was registered, when
        // changed() had already told the registered ones: read it again now that changed() will find this one.
        // Should both deliver the end, the subscriber's flag lets only the first through.
        T now = latest(key, record);
        s.offer(finished.test(now) ? FINISHED : PROGRESS, now);
        return emitter;
    }

    /** The emitter of a new subscriber; tests replace it. */
    protected SseEmitter newEmitter(long timeoutMillis) {
        return new SseEmitter(timeoutMillis);
    }

    /** Announces a stored change to the record's subscribers; only enqueues, never blocks on a client. */
    public void changed(T record) {
        String key = id.apply(record);
        if (finished.test(record)) {
            running.remove(key);
            List<Subscriber<T>> ending;
            synchronized (lock) {
                Set<Subscriber<T>> set = subscribers.remove(key);
                ending = set == null ? List.of() : List.copyOf(set);
                slots.release(ending.size());
            }
            for (Subscriber<T> s : ending) {
                s.offer(FINISHED, record);
            }
        } else {
            if (active.test(record)) {
                running.put(key, record);
            }
            broadcast(key, record);
        }
    }

    /** Open streams of this instance. */
    int subscriberCount() {
        synchronized (lock) {
            return subscribers.values().stream().mapToInt(Set::size).sum();
        }
    }

    /** Open streams of one record. */
    int subscriberCount(String recordId) {
        synchronized (lock) {
            Set<Subscriber<T>> set = subscribers.get(recordId);
            return set == null ? 0 : set.size();
        }
    }

    private T latest(String key, T fallback) {
        return lookup.apply(key).map(r -> asOf.apply(r, Instant.now())).orElse(fallback);
    }

    private void register(Subscriber<T> s) {
        synchronized (lock) {
            Set<Subscriber<T>> set = subscribers.get(s.key());
            int count = set == null ? 0 : set.size();
            if (count >= settings.maxSubscribersPerRecord()) {
                throw new TooManySubscribers(count + " event streams of " + s.key()
                        + " are open, the most one run or matrix may have", "max-subscribers-per-record",
                        settings.maxSubscribersPerRecord());
            }
            if (!slots.tryAcquire()) {
                throw new TooManySubscribers(slots.max() + " event streams are open, the most the service allows",
                        "max-subscribers", slots.max());
            }
            subscribers.computeIfAbsent(s.key(), k -> new LinkedHashSet<>()).add(s);
        }
    }

    /** Removes the subscriber from the registry and frees its place; idempotent. */
    private void deregister(Subscriber<T> s) {
        synchronized (lock) {
            Set<Subscriber<T>> set = subscribers.get(s.key());
            if (set != null && set.remove(s)) {
                slots.release(1);
                if (set.isEmpty()) {
                    subscribers.remove(s.key());
                }
            }
        }
    }

    private void tick() {
        try {
            for (T r : running.values()) {
                T now = asOf.apply(r, Instant.now());
                broadcast(id.apply(now), now);
            }
        } catch (RuntimeException e) {
            log.warn("SSE progress tick failed", e);
        }
    }

    private void heartbeat() {
        try {
            List<Subscriber<T>> all;
            synchronized (lock) {
                all = new ArrayList<>();
                subscribers.values().forEach(all::addAll);
            }
            for (Subscriber<T> s : all) {
                s.offer(null, null);
            }
        } catch (RuntimeException e) {
            log.warn("SSE heartbeat failed", e);
        }
    }

    /** Queues a progress event for the record's subscribers. */
    private void broadcast(String key, T record) {
        List<Subscriber<T>> list;
        synchronized (lock) {
            Set<Subscriber<T>> set = subscribers.get(key);
            if (set == null) {
                return;
            }
            list = List.copyOf(set);
        }
        for (Subscriber<T> s : list) {
            s.offer(PROGRESS, record);
        }
    }

    private static <T> SseEmitter.SseEventBuilder event(String name, String key, T data) {
        return SseEmitter.event().name(name).id(key).data(data, MediaType.APPLICATION_JSON);
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        List<Subscriber<T>> all = new ArrayList<>();
        synchronized (lock) {
            subscribers.values().forEach(all::addAll);
            subscribers.clear();
            slots.release(all.size());
        }
        for (Subscriber<T> s : all) {
            s.close();
        }
        senders.shutdown();
        try {
            if (!senders.awaitTermination(1, TimeUnit.SECONDS)) {
                senders.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The places of open streams, in all: one instance shared by the run and the matrix streams. Thread-safe. */
    public static final class Slots {
        private final int max;
        private final AtomicInteger used = new AtomicInteger();

        public Slots(int max) {
            this.max = max;
        }

        public int max() {
            return max;
        }

        public int used() {
            return used.get();
        }

        boolean tryAcquire() {
            int n;
            do {
                n = used.get();
                if (n >= max) {
                    return false;
                }
            } while (!used.compareAndSet(n, n + 1));
            return true;
        }

        void release(int n) {
            used.addAndGet(-n);
        }
    }

    /** Refused: as many streams are open as the setting allows (the API answers 429). */
    public static final class TooManySubscribers extends RuntimeException {
        private final String setting;
        private final int limit;

        public TooManySubscribers(String what, String setting, int limit) {
            super(what + " (" + EventStreamsProperties.PREFIX + "." + setting + " = " + limit
                    + "); follow it by polling its GET instead, or retry when a stream has closed");
            this.setting = EventStreamsProperties.PREFIX + "." + setting;
            this.limit = limit;
        }

        /** The setting that caps it, e.g. {@code loopbench.events.max-subscribers}. */
        public String setting() {
            return setting;
        }

        public int limit() {
            return limit;
        }
    }
}
