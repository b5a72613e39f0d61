package io.loopbench.recommendations;

import io.loopbench.jobs.RunStatus;
import io.loopbench.race.Race;
import io.loopbench.race.RecommendationSpec;
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
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Recommendations: a load and a budget in, the way to run it here out, decided by a race. */
@RestController
@RequestMapping(path = "/api/recommendations", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "recommendations", description = "Which IO model, thread count, transport and execution to use for a "
        + "load: the candidates raced until one is established best, a tie, or the budget ends")
public class RecommendationController {

    private final RecommendationService recommendations;
    private final RecommendationEvents events;

    public RecommendationController(RecommendationService recommendations, RecommendationEvents events) {
        this.recommendations = recommendations;
        this.events = events;
    }

    /**
     * One page of recommendations, newest first.
     *
     * @param items    recommendations of this page, without their repetitions
     * @param total    recommendations matching the filter
     * @param nextPage the next page, or null on the last
     */
    public record Page(List<Item> items, int page, int limit, int total, Integer nextPage) {
    }

    /**
     * A recommendation without its repetitions.
     *
     * @param outcome     racing, winner, equivalent, undecided or none
     * @param recommended the candidate named (with undecided: the leader so far)
     * @param candidates  how many candidates it races
     */
    public record Item(String id, RunStatus status, Instant createdAt, Instant startedAt, Instant finishedAt,
                       String protocol, double budgetSeconds, Race.Outcome outcome, String recommended,
                       int candidates, String answer, String error) {

        static Item of(RecommendationRecord r) {
            return new Item(r.id(), r.status(), r.createdAt(), r.startedAt(), r.finishedAt(),
                    r.spec().load().protocol().label(), r.spec().budgetSeconds(), r.verdict().outcome(),
                    r.verdict().recommended(), r.candidates().size(), r.verdict().answer(), r.error());
        }
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Queue a recommendation",
            description = "Refused before any work: a field out of range, a load fewer than two candidates can run "
                    + "here, a budget too small for the first round at which a test can decide (the least that is "
                    + "enough is named), or a budget over loopbench.limits.max-recommendation-seconds. 202 with the candidates "
                    + "and the plan.",
            responses = {@ApiResponse(responseCode = "202", description = "Queued"),
                    @ApiResponse(responseCode = "400", description = "A field breaks a rule, or the budget cannot "
                            + "decide", content = @Content(mediaType = "application/problem+json")),
                    @ApiResponse(responseCode = "503", description = "Queue full; see Retry-After",
                            content = @Content(mediaType = "application/problem+json"))})
    public ResponseEntity<RecommendationRecord> submit(
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(examples = {
                    @ExampleObject(name = "tcp-1024-16-16", summary = "TCP 1024 B, 16 × 16: IO models and threads "
                            + "on epoll, 5 minutes", value = """
                            {"load":{"protocol":"tcp","payloadBytes":1024,"clients":16,"window":16},\
                            "budgetSeconds":300,"transports":["epoll"]}"""),
                    @ExampleObject(name = "http-p99-bound", summary = "HTTP 1024 B, 16 × 16, p99 under 2 ms, every "
                            + "transport that loads, 15 minutes", value = """
                            {"load":{"protocol":"http","payloadBytes":1024,"clients":16,"window":16},\
                            "budgetSeconds":900,"p99BoundUs":2000}""")}))
            @RequestBody RecommendationSpec spec) {
        RecommendationRecord r = recommendations.submit(spec);
        return ResponseEntity.accepted().location(URI.create("/api/recommendations/" + r.id())).body(r);
    }

    @GetMapping("/{id}")
    @Operation(summary = "A recommendation: status, progress, the race as it stands (or its answer), every "
            + "repetition")
    public RecommendationRecord get(@PathVariable String id) {
        return recommendations.get(id).asOf(Instant.now());
    }

    @GetMapping
    @Operation(summary = "Recommendations, newest first, optionally filtered by status, one page at a time")
    public Page list(@Parameter(description = "Only recommendations with this status")
                     @RequestParam(required = false) RunStatus status,
                     @Parameter(description = "Per page, 1 … 200") @RequestParam(defaultValue = "20") @Min(1) @Max(200)
                     int limit,
                     @Parameter(description = "0-based page") @RequestParam(defaultValue = "0") @Min(0) int page) {
        List<RecommendationRecord> all = recommendations.store().newestFirst().stream()
                .filter(r -> status == null || r.status() == status).toList();
        int from = (int) Math.min((long) page * limit, all.size());
        int to = Math.min(from + limit, all.size());
        return new Page(all.subList(from, to).stream().map(Item::of).toList(), page, limit, all.size(),
                to < all.size() ? page + 1 : null);
    }

    @GetMapping(path = "/{id}/report", produces = "text/markdown")
    @Operation(summary = "The recommendation as Markdown: the answer, every candidate's figures and fate, the method")
    public ResponseEntity<String> report(@PathVariable String id) {
        RecommendationRecord r = recommendations.get(id);
        Double elapsed = r.startedAt() == null ? null : Duration.between(r.startedAt(),
                r.finishedAt() != null ? r.finishedAt() : Instant.now()).toMillis() / 1000.0;
        return ResponseEntity.ok().contentType(MediaType.parseMediaType("text/markdown;charset=UTF-8"))
                .body(RecommendationReport.markdown(r.race(), r.verdict(), elapsed));
    }

    @GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "Server-Sent Events: 'progress' (the repetition under way, the race as it stands) at least "
            + "once a second while running, then 'finished'")
    public SseEmitter events(@PathVariable String id) {
        return events.subscribe(recommendations.get(id).asOf(Instant.now()));
    }

    @PostMapping("/{id}/cancel")
    @Operation(summary = "Cancel a queued or running recommendation; its finished repetitions are kept")
    public RecommendationRecord cancel(@PathVariable String id) {
        return recommendations.cancel(id);
    }

    @DeleteMapping("/{id}")
    @Operation(summary = "Delete a finished recommendation's record")
    public ResponseEntity<Void> delete(@PathVariable String id) {
        recommendations.delete(id);
        return ResponseEntity.noContent().build();
    }
}
