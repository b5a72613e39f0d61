package io.loopbench.reports;

import io.loopbench.engine.timeline.Timeline;
import io.loopbench.runs.LiveTimelines;
import io.loopbench.runs.RunRecord;
import io.loopbench.runs.RunService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The running repetition's timeline drawn live. Here beside the other charts, so that runs depend on no report code.
 * Stateless; any request thread.
 */
@RestController
@Tag(name = "reports", description = "Reports, charts and comparisons")
public class LiveChartController {

    private final RunService runs;
    private final LiveTimelines live;

    public LiveChartController(RunService runs, LiveTimelines live) {
        this.runs = runs;
        this.live = live;
    }

    @GetMapping(path = "/api/runs/{id}/live/timeline.svg", produces = "image/svg+xml")
    @Operation(summary = "The running repetition's timeline so far (throughput and p99 per interval), drawn live",
            description = "Its GC and JIT marks come with the repetition's stored timeline when it ends "
                    + "(/api/runs/{id}/charts/timeline-1-R.svg). 404 while no repetition of the run is running.",
            responses = @ApiResponse(responseCode = "404", description = "Unknown id, or no repetition running",
                    content = @Content(mediaType = "application/problem+json")))
    public ResponseEntity<String> liveTimeline(@PathVariable String id) {
        RunRecord r = runs.get(id);
        var running = live.intervals(id).filter(e -> !e.getValue().isEmpty())
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "run " + id
                        + " has no repetition running with a closed interval"));
        return ResponseEntity.ok().contentType(ReportController.SVG).body(
                ChartRenderer.timelineChart("Repetition " + running.getKey() + " so far (live; marks when it ends)",
                        Timeline.live(r.spec().timelineIntervalMillis(), running.getValue())));
    }
}
