package io.loopbench.gate;

import io.loopbench.reports.ReportSource;
import io.loopbench.reports.ReportSources;
import io.loopbench.verdicts.VerdictRule;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** The regression gate over two stored runs or matrices, as the CLI's {@code compare} judges two files. */
@RestController
@Tag(name = "reports", description = "Reports, charts and comparisons")
public class GateController {

    private final ReportSources sources;

    public GateController(ReportSources sources) {
        this.sources = sources;
    }

    @GetMapping(path = "/api/gate", produces = {MediaType.APPLICATION_JSON_VALUE, "text/markdown",
            MediaType.APPLICATION_XML_VALUE})
    @Operation(summary = "Regression gate: did the candidate regress against the baseline by more than a threshold?",
            description = "Per matched case, throughput and p99: an anytime-valid confidence sequence for candidate "
                    + "÷ baseline on log values (over the pairs' log ratios with paired=true), each at alpha ÷ the "
                    + "checks. verdict regressed (exitCode 1) when a whole interval lies beyond the threshold on the "
                    + "worse side; passed (0) when every case and metric's interval lies on the better side; "
                    + "undecided (2) otherwise, reasons saying why (too few repetitions, warnings, failed or "
                    + "unmatched cases). The intervals hold at every look: ask again after every pair until decided. format md gives the Markdown, junit a JUnit XML test "
                    + "suite (one test per case and metric) for a CI system; ./loopbench compare does the same over "
                    + "files.")
    public ResponseEntity<?> gate(@RequestParam String baseline, @RequestParam String candidate,
            @Parameter(description = "the regression allowed, a fraction between 0 and 1 (default 0.05: 5 %)")
            @RequestParam(required = false) Double threshold,
            @Parameter(description = "the p99 regression allowed, a fraction between 0 and 1 (default 0.10: 10 %, "
                    + "wider than throughput's since p99 spreads about twice as much between JVMs)")
            @RequestParam(required = false) Double p99Threshold,
            @Parameter(description = "the error rate of each conclusion, over 0 and at most 0.5 (default 0.05)")
            @RequestParam(required = false) Double alpha,
            @Parameter(description = "true when repetition i of each ran back to back (e.g. two matrices run "
                    + "alternately, one repetition each): the intervals are then over the pairs' log ratios; default "
                    + "false")
            @RequestParam(defaultValue = "false") boolean paired,
            @Parameter(description = "json (default), md or junit") @RequestParam(required = false) String format) {
        double t = threshold == null ? VerdictRule.DEFAULT.minimumEffect() : threshold;
        double a = alpha == null ? VerdictRule.DEFAULT.alpha() : alpha;
        double p = p99Threshold == null ? RegressionGate.DEFAULT_P99_THRESHOLD : p99Threshold;
        if (!(t >= 0 && t <= 1)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "threshold must be between 0 and 1 (a fraction: 0.05 is 5 %), not " + t);
        }
        if (!(p >= 0 && p <= 1)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "p99Threshold must be between 0 and 1 (a fraction: 0.10 is 10 %), not " + p);
        }
        if (!(a > 0 && a <= 0.5)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "alpha must be over 0 and at most 0.5, not " + a);
        }
        String f = format == null ? "json" : format;
        if (!f.equals("json") && !f.equals("md") && !f.equals("junit")) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "format must be json, md or junit, not '"
                    + format + "'");
        }
        ReportSource b = sources.any(baseline);
        ReportSource c = sources.any(candidate);
        RegressionGate.Result result = RegressionGate.judge(b.id(), b.cases(), c.id(), c.cases(),
                new VerdictRule(a, t), p, paired);
        return switch (f) {
            case "md" -> ResponseEntity.ok().contentType(MediaType.parseMediaType("text/markdown;charset=UTF-8"))
                    .body(GateReport.markdown(result));
            case "junit" -> ResponseEntity.ok().contentType(MediaType.APPLICATION_XML)
                    .body(GateReport.junitXml(result));
            default -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(result);
        };
    }
}
