package io.loopbench.runs;

import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.time.Instant;

/**
 * Server-Sent Events per run: a {@code progress} event on every change and at least once a second while the run
 * is running, then one {@code finished} event with the outcome, after which the stream ends. A subscriber that
 * comes after the end gets the {@code finished} event at once. Thread-safe.
 */
public class RunEvents implements RunListener, AutoCloseable {

    static final String PROGRESS = "progress";
    static final String FINISHED = "finished";

    private final Map<String, List<SseEmitter>> subscribers = new ConcurrentHashMap<>();
    private final Map<String, RunRecord> running = new ConcurrentHashMap<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("loopbench-sse-ticker").daemon(true).factory());
    public RunEvents() {
        ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    }

    public SseEmitter subscribe(RunRecord run) {
        SseEmitter emitter = new SseEmitter(0L);
        if (run.status().isFinished()) {
            send(emitter, FINISHED, run);
            emitter.complete();
            return emitter;
        }
        List<SseEmitter> list = subscribers.computeIfAbsent(run.id(), k -> new CopyOnWriteArrayList<>());
        list.add(emitter);
        emitter.onCompletion(() -> list.remove(emitter));
        emitter.onTimeout(() -> list.remove(emitter));
        emitter.onError(e -> list.remove(emitter));
        send(emitter, PROGRESS, run);
        return emitter;
    }

    @Override
    public void changed(RunRecord run) {
        if (run.status().isFinished()) {
            running.remove(run.id());
            List<SseEmitter> list = subscribers.remove(run.id());
            if (list != null) {
                for (SseEmitter e : list) {
                    send(e, FINISHED, run);
                    e.complete();
                }
            }
        } else {
            if (run.status() == RunStatus.RUNNING) {
                running.put(run.id(), run);
            }
            broadcast(run);
        }
    }

    private void tick() {
        for (RunRecord r : running.values()) {
            broadcast(r.asOf(Instant.now()));
        }
    }

    private void broadcast(RunRecord run) {
        List<SseEmitter> list = subscribers.get(run.id());
        if (list != null) {
            for (SseEmitter e : list) {
                if (!send(e, PROGRESS, run)) {
                    list.remove(e);
                }
            }
        }
    }

    private static boolean send(SseEmitter emitter, String name, RunRecord run) {
        try {
            synchronized (emitter) {
                emitter.send(SseEmitter.event().name(name).id(run.id()).data(run, MediaType.APPLICATION_JSON));
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
