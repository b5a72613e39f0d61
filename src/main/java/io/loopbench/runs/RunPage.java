package io.loopbench.runs;

import io.loopbench.jobs.RunStatus;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.Stat;
import io.loopbench.engine.Summary;

import java.time.Instant;
import java.util.List;

/**
 * One page of {@code GET /api/runs}, newest first.
 *
 * @param items    the runs of this page, newest first
 * @param page     this page's number, from 0
 * @param limit    runs per page
 * @param total    runs matching the filters, on all pages
 * @param nextPage the page after this one, or null on the last page
 */
public record RunPage(List<Item> items, int page, int limit, int total, Integer nextPage) {

    /**
     * A run without its per-repetition details and logs.
     *
     * @param roundTripsPerSecond the summary's round trips/s (median, min, max); null unless succeeded
     * @param rttP99Us            the summary's p99 RTT in µs (median, min, max); null unless succeeded
     */
    public record Item(String id, RunStatus status, Isolation isolation, RunSpec spec, Instant createdAt,
                       Instant startedAt, Instant finishedAt, RunProgress progress, Boolean ok, String error,
                       Stat roundTripsPerSecond, Stat rttP99Us) {

        static Item of(RunRecord r) {
            Summary s = r.summary();
            return new Item(r.id(), r.status(), r.isolation(), r.spec(), r.createdAt(), r.startedAt(),
                    r.finishedAt(), r.progress(), r.ok(), r.error(),
                    s == null ? null : s.roundTripsPerSecond(), s == null ? null : s.latency().p99Us());
        }
    }
}
