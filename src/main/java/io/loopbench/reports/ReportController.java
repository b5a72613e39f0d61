package io.loopbench.reports;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.loopbench.engine.latency.Spectrum;
import io.loopbench.verdicts.VerdictRule;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.springframework.http.HttpStatus.NOT_FOUND;

/** Reports (Markdown and HTML), their SVG charts, and comparisons of two runs or matrices. */
@RestController
@Tag(name = "reports", description = "Reports, charts and comparisons")
public class ReportController {

    static final MediaType MARKDOWN = MediaType.parseMediaType("text/markdown;charset=UTF-8");
    static final MediaType SVG = MediaType.parseMediaType("image/svg+xml");
    private static final String MINIMUM_EFFECT = "the smallest change of a ratio a verdict calls established, as a "
            + "fraction between 0 and 1 (default 0.05: 5 %)";

    private final ReportSources sources;

    public ReportController(ReportSources sources) {
        this.sources = sources;
    }

    @GetMapping(path = "/api/runs/{id}/report", produces = {"text/markdown", "text/html"})
    @Operation(summary = "A run's report: test conditions, key results, charts, tables, definitions, caveats",
            description = "Markdown (text/markdown) or HTML (text/html), by the Accept header or ?format=md|html.")
    public ResponseEntity<String> runReport(@PathVariable String id,
            @Parameter(description = "md or html; overrides the Accept header") @RequestParam(required = false)
            String format, @RequestHeader(value = HttpHeaders.ACCEPT, required = false) String accept,
            @Parameter(description = MINIMUM_EFFECT) @RequestParam(required = false) Double minimumEffect) {
        return report(sources.run(id), format, accept, rule(minimumEffect));
    }

    @GetMapping(path = "/api/runs/{id}/charts/{name}.svg", produces = "image/svg+xml")
    @Operation(summary = "A run's chart: throughput or p99 (median with min–max whiskers), timeline-1-R (repetition "
            + "R over time), spectrum-1 (latency by percentile), flame-1 (flame graph of its CPU profiles, merged)")
    public ResponseEntity<String> runChart(@PathVariable String id,
            @Parameter(description = "throughput or p99 (or throughput-N / p99-N for group N), timeline-1-R, "
                    + "spectrum-1, flame-1")
            @PathVariable
            String name) {
        return chart(sources.run(id), name);
    }

    @GetMapping(path = "/api/runs/{id}/spectrum", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "A run's latency by percentile: each passed repetition's spectrum and the pooled one",
            description = "From the stored histograms: the RTT (µs) at 0, 50, 75, 90, 95, 99, 99.5, 99.9 % … as far "
                    + "as the observations resolve (1 ÷ (1 − p) at most their count), then at 100 %, the largest. "
                    + "Its chart: /api/runs/{id}/charts/spectrum-1.svg.")
    public Spectra runSpectrum(@PathVariable String id) {
        return Spectra.of(sources.run(id).cases().getFirst());
    }

    @GetMapping(path = "/api/compare/spectrum.svg", produces = "image/svg+xml")
    @Operation(summary = "Two runs' pooled latency by percentile, overlaid",
            responses = @ApiResponse(responseCode = "404", description = "Unknown id, not a run, or a run without "
                    + "stored histograms", content = @Content(mediaType = "application/problem+json")))
    public ResponseEntity<String> compareSpectrum(@RequestParam String baseline, @RequestParam String candidate) {
        Map<String, Spectrum> series = new LinkedHashMap<>();
        series.put("baseline " + baseline, pooled(baseline));
        series.put("candidate " + candidate, pooled(candidate));
        return ResponseEntity.ok().contentType(SVG).body(ChartRenderer.spectrumChart(
                "Latency by percentile, pooled: candidate against baseline", series));
    }

    private Spectrum pooled(String runId) {
        Spectrum s = Spectra.of(sources.run(runId).cases().getFirst()).pooled();
        if (s == null) {
            throw new ResponseStatusException(NOT_FOUND, "run " + runId + " has no stored histograms");
        }
        return s;
    }

    @GetMapping(path = "/api/matrices/{id}/report", produces = {"text/markdown", "text/html"})
    @Operation(summary = "A matrix's report, as arknet's: conditions, key results per group, charts by IO model, "
            + "tables per protocol and clients × payload, guidance, definitions, caveats",
            description = "Markdown (text/markdown) or HTML (text/html), by the Accept header or ?format=md|html.")
    public ResponseEntity<String> matrixReport(@PathVariable String id,
            @Parameter(description = "md or html; overrides the Accept header") @RequestParam(required = false)
            String format, @RequestHeader(value = HttpHeaders.ACCEPT, required = false) String accept,
            @Parameter(description = MINIMUM_EFFECT) @RequestParam(required = false) Double minimumEffect) {
        return report(sources.matrix(id), format, accept, rule(minimumEffect));
    }

    @GetMapping(path = "/api/matrices/{id}/charts/{name}.svg", produces = "image/svg+xml")
    @Operation(summary = "A matrix chart: throughput-N or p99-N for case group N (medians with min–max whiskers), "
            + "rate-N, timeline-C-R (case C's repetition R over time), spectrum-C (case C's latency by percentile), "
            + "flame-C (case C's flame graph, its repetitions' CPU profiles merged)")
    public ResponseEntity<String> matrixChart(@PathVariable String id, @PathVariable String name) {
        return chart(sources.matrix(id), name);
    }

    @GetMapping(path = "/api/compare", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Candidate versus baseline, case by case",
            description = "Per case, for throughput and p99, the ratio candidate ÷ baseline (the ratio of geometric "
                    + "means) with its interval from an anytime-valid confidence sequence on logarithms (coverage "
                    + "1 − alpha ÷ the comparison's differences, Bonferroni), and a decision (throughput.decision, "
                    + "p99.decision). Two runs or matrices ran at different times, so the machine drifts between "
                    + "them: a difference is established only when its whole interval lies beyond that drift "
                    + "(driftBound, calibrated by A/A runs on this machine kind), and one within it is decided "
                    + "drift_not_controlled; with fewer than two repetitions a side the decision is "
                    + "too_few_repetitions and needed says how many. A case whose "
                    + "either side carries warnings (a measured phase not JIT-quiet, window not kept full, a capped "
                    + "warm-up, or a record made before those self-checks) lists them in warnings, and its verdict "
                    + "says it is not clean; a case where a side failed, as unfair or otherwise, is listed in "
                    + "failedCases with the reason. Two single-case runs are compared whatever their specs; "
                    + "otherwise cases are matched by their specification.")
    public Comparisons.Comparison compare(@RequestParam String baseline, @RequestParam String candidate,
            @Parameter(description = MINIMUM_EFFECT) @RequestParam(required = false) Double minimumEffect) {
        VerdictRule rule = rule(minimumEffect);
        return Comparisons.compare(sources.any(baseline), sources.any(candidate), rule);
    }

    @GetMapping(path = "/api/matrices/{id}/execution-comparison", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "A matrix's executions, matched: each execution against the first listed, case by case",
            description = "Cases that differ only by execution are paired repetition by repetition (they ran back "
                    + "to back, in an order alternated between repetitions); per pair the ratio other ÷ baseline of "
                    + "round trips/s, of process CPU and of CPU seconds per round trip, each estimated over the pairs "
                    + "with its 95 % interval and decided by Wilcoxon's signed-rank test on the log ratios (the three "
                    + "of a row as one family, Holm). A failed repetition "
                    + "leaves its index out of the pairs; pairsWithWarnings counts the pairs with a repetition that "
                    + "carries warnings. Empty cases when the matrix has one execution.",
            responses = {@ApiResponse(responseCode = "200", description = "The comparison"),
                    @ApiResponse(responseCode = "404", description = "No matrix with this id",
                            content = @Content(mediaType = "application/problem+json"))})
    public ExecutionComparisons.ExecutionComparison executionComparison(@PathVariable String id,
            @Parameter(description = MINIMUM_EFFECT) @RequestParam(required = false) Double minimumEffect) {
        VerdictRule rule = rule(minimumEffect);
        return ExecutionComparisons.of(sources.matrix(id), rule);
    }

    @GetMapping(path = "/api/matrices/{id}/protocol-costs", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "A matrix's protocol cost: each protocol against tcp, each TLS protocol against its plaintext",
            description = "Among cases that differ only by protocol (same message size, load, work, execution and "
                    + "IO profile), each protocol against tcp, and tcps, wss and https against tcp, websocket and "
                    + "http (tlsCost: true): ratios of round trips/s and p99 matched repetition by repetition, "
                    + "with their intervals and decisions (one profile's costs as one family, Bonferroni), with either "
                    + "side's warnings. A TLS provider or a datagramsPerRead "
                    + "makes a variant of its protocol, compared on its own. Empty when no IO profile has two "
                    + "protocols.",
            responses = {@ApiResponse(responseCode = "200", description = "The protocol costs"),
                    @ApiResponse(responseCode = "404", description = "No matrix with this id",
                            content = @Content(mediaType = "application/problem+json"))})
    public List<ProtocolCosts.ProtocolCost> protocolCosts(@PathVariable String id,
            @Parameter(description = MINIMUM_EFFECT) @RequestParam(required = false) Double minimumEffect) {
        VerdictRule rule = rule(minimumEffect);
        return ProtocolCosts.of(sources.matrix(id).cases(), rule);
    }

    /** The rule of a request: the default, or another minimum effect; refused before any work when out of range. */
    static VerdictRule rule(Double minimumEffect) {
        if (minimumEffect == null) {
            return VerdictRule.DEFAULT;
        }
        if (!(minimumEffect >= 0 && minimumEffect <= 1)) {
            throw new ResponseStatusException(org.springframework.http.HttpStatus.BAD_REQUEST,
                    "minimumEffect must be between 0 and 1 (a fraction: 0.05 is 5 %), not " + minimumEffect);
        }
        return new VerdictRule(VerdictRule.DEFAULT.alpha(), minimumEffect);
    }

    static ResponseEntity<String> report(ReportSource source, String format, String accept, VerdictRule rule) {
        boolean html = format != null ? format.equals("html")
                : accept != null && accept.contains("text/html");
        if (format != null && !format.equals("html") && !format.equals("md")) {
            throw new ResponseStatusException(org.springframework.http.HttpStatus.BAD_REQUEST,
                    "format must be md or html, not '" + format + "'");
        }
        return html
                ? ResponseEntity.ok().contentType(MediaType.parseMediaType("text/html;charset=UTF-8"))
                .body(ReportRenderer.html(source, "charts/", rule))
                : ResponseEntity.ok().contentType(MARKDOWN).body(ReportRenderer.markdown(source, "charts/", rule));
    }

    static ResponseEntity<String> chart(ReportSource source, String name) {
        return ReportCharts.chart(source, name)
                .map(svg -> ResponseEntity.ok().contentType(SVG).body(svg))
                .orElseThrow(() -> new ResponseStatusException(NOT_FOUND, "no chart '" + name + "' for "
                        + source.kind() + " " + source.id() + "; charts: " + ReportCharts.chartNames(source)));
    }
}
