package io.loopbench.runs;

import io.loopbench.jobs.RunStatus;
import io.loopbench.engine.spec.Protocol;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.net.URI;
import java.time.Instant;
import java.util.List;

/** The run API: submit, follow, list, cancel and delete measurements. */
@RestController
@RequestMapping(path = "/api/runs", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "runs", description = "Measurements: one run specification, executed as independent repetitions")
public class RunController {

    private final RunService runs;
    private final RunEvents events;
    private final LiveTimelines live;

    public RunController(RunService runs, RunEvents events, LiveTimelines live) {
        this.runs = runs;
        this.events = events;
        this.live = live;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Queue a run",
            description = "Answers 202 with the run's id, status queued, the full effective specification and the "
                    + "estimated duration; Location points at the run. Runs execute one at a time in arrival order.",
            responses = {
                    @ApiResponse(responseCode = "202", description = "Queued"),
                    @ApiResponse(responseCode = "400", description = "Invalid specification: every violated field "
                            + "with the value given and the allowed range", content = @Content(
                            mediaType = "application/problem+json")),
                    @ApiResponse(responseCode = "415", description = "Not JSON", content = @Content(
                            mediaType = "application/problem+json")),
                    @ApiResponse(responseCode = "503", description = "Queue full; see Retry-After",
                            content = @Content(mediaType = "application/problem+json"))})
    public ResponseEntity<RunRecord> submit(@io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
            examples = {
                    @ExampleObject(name = "tcp-1024B-16x16-shared1", summary = "TCP, 1024 B, 16 clients, window 16, "
                            + "shared 1 thread (the main arknet profile)", value = """
                            {"protocol":"tcp","payloadBytes":1024,"clients":16,"window":16,"ioModel":"shared",\
                            "ioThreads":1,"seconds":2,"warmupSeconds":1,"warmupMode":"auto","warmupMaxSeconds":10,\
                            "repetitions":3}"""),
                    @ExampleObject(name = "tcp-64B-1x1-sharded2", summary = "TCP, 64 B, 1 client, window 1, "
                            + "sharded 2 threads", value = """
                            {"protocol":"tcp","payloadBytes":64,"clients":1,"window":1,"ioModel":"sharded",\
                            "ioThreads":2}"""),
                    @ExampleObject(name = "udp-1024B-16x1-work10000", summary = "UDP, 1024 B, 16 clients, window 1, "
                            + "10,000 iterations of work per echo", value = """
                            {"protocol":"udp","payloadBytes":1024,"clients":16,"window":1,"work":10000}"""),
                    @ExampleObject(name = "quick-in-process", summary = "A 1-second in-process smoke run (a fixed "
                            + "warm-up keeps it short)", value = """
                            {"seconds":1,"warmupSeconds":0.5,"warmupMode":"fixed","repetitions":1,\
                            "isolation":"in-process"}""")}))
                                            @RequestBody RunRequest request) {
        RunRecord r = runs.submit(request.spec(), request.isolationOrDefault(), request.placement());
        return ResponseEntity.accepted().location(URI.create("/api/runs/" + r.id())).body(r);
    }

    @GetMapping("/{id}")
    @Operation(summary = "A run: status, progress, specification and, once finished, results and summary",
            responses = @ApiResponse(responseCode = "404", description = "Unknown id",
                    content = @Content(mediaType = "application/problem+json")))
    public RunRecord get(@PathVariable String id) {
        return live.onto(runs.get(id).asOf(Instant.now()));
    }

    @GetMapping
    @Operation(summary = "Runs, newest first, optionally filtered by status and protocol, one page at a time")
    public RunPage list(
            @Parameter(description = "Only runs with this status") @RequestParam(required = false) RunStatus status,
            @Parameter(description = "Only runs of this protocol") @RequestParam(required = false) Protocol protocol,
            @Parameter(description = "Runs per page, 1 … 200") @RequestParam(defaultValue = "20") @Min(1) @Max(200)
            int limit,
            @Parameter(description = "0-based page number") @RequestParam(defaultValue = "0") @Min(0) int page) {
        Instant now = Instant.now();
        List<RunRecord> matching = runs.store().newestFirst().stream()
                .filter(r -> status == null || r.status() == status)
                .filter(r -> protocol == null || r.spec().protocol() == protocol)
                .toList();
        int from = (int) Math.min((long) page * limit, matching.size());
        int to = Math.min(from + limit, matching.size());
        List<RunPage.Item> items = matching.subList(from, to).stream().map(r -> RunPage.Item.of(r.asOf(now)))
                .toList();
        return new RunPage(items, page, limit, matching.size(), to < matching.size() ? page + 1 : null);
    }

    @GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "Server-Sent Events: 'progress' at least once a second while running, then one "
            + "'finished' event with the outcome; after the end, the 'finished' event at once")
    public SseEmitter events(@PathVariable String id) {
        return events.subscribe(live.onto(runs.get(id).asOf(Instant.now())));
    }

    @PostMapping("/{id}/cancel")
    @Operation(summary = "Cancel a queued or running run",
            description = "A running run stops within 5 s, releasing every loop, socket and process; it ends "
                    + "cancelled and keeps the repetitions that had finished.",
            responses = @ApiResponse(responseCode = "409", description = "Already finished",
                    content = @Content(mediaType = "application/problem+json")))
    public RunRecord cancel(@PathVariable String id) {
        return runs.cancel(id);
    }

    @DeleteMapping("/{id}")
    @Operation(summary = "Delete a finished run's record",
            responses = {@ApiResponse(responseCode = "204", description = "Deleted"),
                    @ApiResponse(responseCode = "409", description = "Queued or running",
                            content = @Content(mediaType = "application/problem+json"))})
    public ResponseEntity<Void> delete(@PathVariable String id) {
        runs.delete(id);
        return ResponseEntity.noContent().build();
    }
}
