package io.loopbench.matrices;

import io.loopbench.jobs.RunStatus;
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

/** Matrices: sweeps of protocols, payloads, profiles and IO models, as arknet's runner. */
@RestController
@RequestMapping(path = "/api/matrices", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "matrices", description = "Sweeps: every combination of the given lists is a case")
public class MatrixController {

    private final MatrixService matrices;
    private final MatrixEvents events;

    public MatrixController(MatrixService matrices, MatrixEvents events) {
        this.matrices = matrices;
        this.events = events;
    }

    /**
     * One page of matrices, newest first.
     *
     * @param items    matrices of this page, without their cases
     * @param total    matrices matching the filter
     * @param nextPage the next page, or null on the last
     */
    public record Page(List<Item> items, int page, int limit, int total, Integer nextPage) {
    }

    /**
     * A matrix without its cases.
     *
     * @param cases          how many cases it has
     * @param completedCases how many have all their repetitions
     */
    public record Item(String id, RunStatus status, Instant createdAt, Instant startedAt, Instant finishedAt,
                       double estimatedSeconds, MatrixRecord.Progress progress, int cases, long completedCases,
                       Boolean ok, String error) {

        static Item of(MatrixRecord m) {
            return new Item(m.id(), m.status(), m.createdAt(), m.startedAt(), m.finishedAt(), m.estimatedSeconds(),
                    m.progress(), m.cases().size(), m.cases().stream().filter(c -> c.summary() != null).count(),
                    m.ok(), m.error());
        }
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Queue a matrix",
            description = "Every case is validated before anything runs, and the estimated duration is capped "
                    + "(loopbench.limits.max-matrix-seconds). 202 with the expanded cases and the estimate.",
            responses = {@ApiResponse(responseCode = "202", description = "Queued"),
                    @ApiResponse(responseCode = "400", description = "A list or case breaks a rule, or the "
                            + "estimate is over the cap", content = @Content(mediaType = "application/problem+json")),
                    @ApiResponse(responseCode = "503", description = "Queue full; see Retry-After",
                            content = @Content(mediaType = "application/problem+json"))})
    public ResponseEntity<MatrixRecord> submit(@io.swagger.v3.oas.annotations.parameters.RequestBody(content =
    @Content(examples = {
            @ExampleObject(name = "arknet-baseline", summary = "arknet's baseline (every list defaulted; ~17 min)",
                    value = "{}"),
            @ExampleObject(name = "tcp-io-models", summary = "TCP 1024 B, 16 × 16, five IO profiles, short",
                    value = """
                            {"protocols":["tcp"],"payloads":[1024],"profiles":[{"clients":16,"window":16}],\
                            "seconds":1,"warmupSeconds":0.5,"warmupMode":"auto","warmupMaxSeconds":5,\
                            "repetitions":3}"""),
            @ExampleObject(name = "executions", summary = "TCP 1024 B, 16 × 16, shared and sharded 2: netty, reactive "
                    + "and virtual-threads (not sharded), matched per repetition", value = """
                            {"protocols":["tcp"],"payloads":[1024],"profiles":[{"clients":16,"window":16}],\
                            "ioModels":["shared","sharded"],"ioThreads":[2],\
                            "executions":["netty","reactive","virtual-threads"],\
                            "seconds":1,"warmupSeconds":0.5,"repetitions":5}""")}))
                                               @RequestBody MatrixSpec spec) {
        MatrixRecord m = matrices.submit(spec);
        return ResponseEntity.accepted().location(URI.create("/api/matrices/" + m.id())).body(m);
    }

    @GetMapping("/{id}")
    @Operation(summary = "A matrix: status, progress (step i of n, ETA), and every case with its repetitions")
    public MatrixRecord get(@PathVariable String id) {
        return matrices.get(id).asOf(Instant.now());
    }

    @GetMapping
    @Operation(summary = "Matrices, newest first, optionally filtered by status, one page at a time")
    public Page list(@Parameter(description = "Only matrices with this status") @RequestParam(required = false)
                     RunStatus status,
                     @Parameter(description = "Per page, 1 … 200") @RequestParam(defaultValue = "20") @Min(1) @Max(200)
                     int limit,
                     @Parameter(description = "0-based page") @RequestParam(defaultValue = "0") @Min(0) int page) {
        Instant now = Instant.now();
        List<MatrixRecord> all = matrices.store().newestFirst().stream()
                .filter(m -> status == null || m.status() == status).toList();
        int from = (int) Math.min((long) page * limit, all.size());
        int to = Math.min(from + limit, all.size());
        return new Page(all.subList(from, to).stream().map(m -> Item.of(m.asOf(now))).toList(), page, limit,
                all.size(), to < all.size() ? page + 1 : null);
    }

    @GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "Server-Sent Events: 'progress' (step i of n, ETA) at least once a second while running, "
            + "then 'finished'")
    public SseEmitter events(@PathVariable String id) {
        return events.subscribe(matrices.get(id).asOf(Instant.now()));
    }

    @PostMapping("/{id}/cancel")
    @Operation(summary = "Cancel a queued or running matrix; the cases' finished repetitions are kept")
    public MatrixRecord cancel(@PathVariable String id) {
        return matrices.cancel(id);
    }

    @DeleteMapping("/{id}")
    @Operation(summary = "Delete a finished matrix's record")
    public ResponseEntity<Void> delete(@PathVariable String id) {
        matrices.delete(id);
        return ResponseEntity.noContent().build();
    }
}
