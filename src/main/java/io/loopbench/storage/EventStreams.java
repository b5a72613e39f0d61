package io.loopbench.storage;

import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Server-Sent Events per record (a run or a matrix): a {@code progress} event on every change and at least once a
 * second while it is running, then one {@code finished} event with the outcome, after which the stream ends. A
 * subscriber that comes after the end gets the {@code finished} event at once. Thread-safe.
 *
 * @param <T> the record type
 */
public class EventStreams<T> implements AutoCloseable {

    public static final String PROGRESS = "progress";
    public static final String FINISHED = "finished";

    private final Map<String, List<SseEmitter>> subscribers = new ConcurrentHashMap<>();
    private final Map<String, T> running = new ConcurrentHashMap<>();
    private final Function<T, String> id;
    private final Predicate<T> finished;
    private final Predicate<T> active;
    private final BiFunction<T, Instant, T> asOf;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("loopbench-sse-ticker").daemon(true).factory());
    /**
     * @param finished whether a record has reached its end
     * @param active   whether a record is running (and so ticks once a second)
     * @param asOf     the record with its progress times brought up to an instant
     */
    public EventStreams(Function<T, String> id, Predicate<T> finished, Predicate<T> active,
                        BiFunction<T, Instant, T> asOf) {
        this.id = id;
        this.finished = finished;
        this.active = active;
        this.asOf = asOf;
        ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    }

    public SseEmitter subscribe(T run) {
        SseEmitter emitter = new SseEmitter(0L);
        if (finished.test(run)) {
            send(emitter, FINISHED, run);
            emitter.complete();
            return emitter;
        }
        List<SseEmitter> list = subscribers.computeIfAbsent(id.apply(run), k -> new CopyOnWriteArrayList<>());
        list.add(emitter);
        emitter.onCompletion(() -> list.remove(emitter));
        emitter.onTimeout(() -> list.remove(emitter));
        emitter.onError(e -> list.remove(emitter));
        send(emitter, PROGRESS, run);
        return emitter;
    }

    /** Announces a stored change to the record's subscribers. */
    public void changed(T run) {
        String key = id.apply(run);
        if (finished.test(run)) {
            running.remove(key);
            List<SseEmitter> list = subscribers.remove(key);
            if (list != null) {
                for (SseEmitter e : list) {
                    send(e, FINISHED, run);
                    e.complete();
                }
            }
        } else {
            if (active.test(run)) {
                running.put(key, run);
            }
            broadcast(run);
        }
    }

    private void tick() {
        for (T r : running.values()) {
            broadcast(asOf.apply(r, Instant.now()));
        }
    }

    private void broadcast(T run) {
        List<SseEmitter> list = subscribers.get(id.apply(run));
        if (list != null) {
            for (SseEmitter e : list) {
                if (!send(e, PROGRESS, run)) {
                    list.remove(e);
                }
            }
        }
    }

    private boolean send(SseEmitter emitter, String name, T run) {
        try {
            synchronized (emitter) {
                emitter.send(SseEmitter.event().name(name).id(id.apply(run)).data(run, MediaType.APPLICATION_JSON));
            }
            return true;
        } catch (IOException | IllegalStateException e) {
            emitter.completeWithError(e);
            return false;
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        subscribers.values().forEach(list -> list.forEach(SseEmitter::complete));
        subscribers.clear();
    }
}
