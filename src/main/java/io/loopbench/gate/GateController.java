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
            description = "Per matched case, throughput and p99: one-sided Mann–Whitney U tests on the repetitions' "
                    + "log values, the candidate's shifted by the threshold. verdict regressed (exitCode 1) when a "
                    + "regression beyond the threshold is established, Holm-adjusted over every clean case and "
                    + "metric at alpha (Wilcoxon's signed-rank test on matched repetitions with paired=true); "
                    + "passed (0) when every case and metric is shown not to have regressed that "
                    + "far, each at alpha; undecided (2) otherwise, reasons saying why (too few repetitions, "
                    + "warnings, failed or unmatched cases). format md gives the Markdown, junit a JUnit XML test "
                    + "suite (one test per case and metric) for a CI system; ./loopbench compare does the same over "
                    + "files.")
    public ResponseEntity<?> gate(@RequestParam String baseline, @RequestParam String candidate,
            @Parameter(description = "the regression allowed, a fraction between 0 and 1 (default 0.05: 5 %)")
            @RequestParam(required = false) Double threshold,
            @Parameter(description = "the error rate of each conclusion, over 0 and at most 0.5 (default 0.05)")
            @RequestParam(required = false) Double alpha,
            @Parameter(description = "true when repetition i of each ran back to back (e.g. two matrices run "
                    + "alternately, one repetition each): Wilcoxon's signed-rank test on the pairs; default false")
            @RequestParam(defaultValue = "false") boolean paired,
            @Parameter(description = "json (default), md or junit") @RequestParam(required = false) String format) {
        double t = threshold == null ? VerdictRule.DEFAULT.minimumEffect() : threshold;
        double a = alpha == null ? VerdictRule.DEFAULT.alpha() : alpha;
        if (!(t >= 0 && t <= 1)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "threshold must be between 0 and 1 (a fraction: 0.05 is 5 %), not " + t);
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
                new VerdictRule(a, t), paired);
        return switch (f) {
            case "md" -> ResponseEntity.ok().contentType(MediaType.parseMediaType("text/markdown;charset=UTF-8"))
                    .body(GateReport.markdown(result));
            case "junit" -> ResponseEntity.ok().contentType(MediaType.APPLICATION_XML)
                    .body(GateReport.junitXml(result));
            default -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(result);
        };
    }
}
