package io.loopbench.runs;

import io.loopbench.engine.timeline.TimelineInterval;
import io.loopbench.jobs.RunStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The timeline of each running run's current repetition, interval by interval as its worker closes them: kept in
 * memory only (the stored record gets the repetition's whole timeline when it finishes, and is not rewritten for every
 * interval), shown in the run's progress and drawn live. Thread-safe: the runner thread adds, request and event
 * threads read copies.
 */
public class LiveTimelines {

    /** The most intervals kept per run: both phases at their most (see RunSpec.MAX_TIMELINE_INTERVALS). */
    static final int MAX_INTERVALS = 20_000;

    private final Map<String, Live> runs = new ConcurrentHashMap<>();

    /** Where a running repetition's timeline is: how many intervals have closed, and the latest. */
    public record Progress(int repetition, int intervals, TimelineInterval latest) {
    }

    private record Live(int repetition, List<TimelineInterval> intervals) {
    }

    /** Repetition {@code repetition} of the run begins: its timeline starts empty. */
    void started(String runId, int repetition) {
        runs.put(runId, new Live(repetition, new ArrayList<>()));
    }

    void add(String runId, int repetition, TimelineInterval interval) {
        Live live = runs.get(runId);
        if (live != null && live.repetition() == repetition) {
            synchronized (live) {
                if (live.intervals().size() < MAX_INTERVALS) {
                    live.intervals().add(interval);
                }
            }
        }
    }

    void ended(String runId) {
        runs.remove(runId);
    }

    /** The running repetition of a run, and its intervals so far; empty when none is running. */
    public Optional<Map.Entry<Integer, List<TimelineInterval>>> intervals(String runId) {
        Live live = runs.get(runId);
        if (live == null) {
            return Optional.empty();
        }
        synchronized (live) {
            return Optional.of(Map.entry(live.repetition(), List.copyOf(live.intervals())));
        }
    }

    /** The run with its running repetition's timeline progress in its progress, while it runs. */
    public RunRecord onto(RunRecord r) {
        if (r.status() != RunStatus.RUNNING || r.progress() == null) {
            return r;
        }
        return intervals(r.id()).filter(e -> !e.getValue().isEmpty())
                .map(e -> r.withProgress(r.progress().withTimeline(new Progress(e.getKey(), e.getValue().size(),
                        e.getValue().getLast()))))
                .orElse(r);
    }
}
