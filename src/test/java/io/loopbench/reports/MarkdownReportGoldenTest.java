package io.loopbench.reports;

import io.loopbench.verdicts.VerdictRule;
import io.loopbench.matrices.MatrixRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Markdown report of a stored matrix is exactly the golden file beside it. {@code matrix-fixture.json} is a real
 * matrix (TCP and UDP, 1024 B, 16 clients × window 1, shared 1 and 2 and sharded 2, 3 in-process repetitions of
 * 0.5 s, keepGoing) measured on 2026-11-30 on the development machine and stored by the service as is.
 * {@code matrix-executions-fixture.json} is made by hand for the matched comparison of executions, and is no
 * measurement: its netty cases are that matrix's TCP cases, and its reactive and virtual-threads cases are copies
 * of them whose echoes and CPU seconds were scaled by invented factors per repetition (virtual-threads left out of
 * sharded 2, and sharded 2 reactive failing its repetition 2), judged and summarised by the service's own code.
 * Both were stored before repetitions recorded JIT activity, fairness, the window fill, the warm-up's mode and stored
 * histograms, so their reports say those were not recorded, and their key results that nothing says the measured
 * phases were steady and fair. {@code matrix-selfchecks-fixture.json} and {@code matrix-rates-fixture.json} are real
 * matrices with every self-check, measured on 2026-12-01 on the development machine (2 cores, shared with other
 * work) in-process and stored by the service as is: TCP 1024 B, 16 clients × window 16, shared 1 and 2 and sharded
 * 2, 2 repetitions of 0.5 s after an auto warm-up of 0.2 … 3 s (its repetitions carry warnings — capped warm-ups,
 * measured phases not JIT-quiet — and shared 2 failed both repetitions as unfair); and open load at 5,000, 50,000
 * and 400,000 messages/s, TCP 1024 B, 4 clients × window 4, shared 1, 2 repetitions of 0.5 s after a fixed 0.2 s
 * warm-up (every rate dropped messages, so the report names no highest rate under the p99 bound).
 * After an intended change to the report, regenerate the golden files with
 * {@code ./mvnw test -Dtest=MarkdownReportGoldenTest -Dgolden.update=true} and review the diff.
 */
class MarkdownReportGoldenTest {

    static final Path DIRECTORY = Path.of("src/test/resources/reports");

    @ParameterizedTest(name = "{0}")
    @CsvSource({"matrix-fixture.json, matrix-report.golden.md",
            "matrix-executions-fixture.json, matrix-executions-report.golden.md",
            "matrix-selfchecks-fixture.json, matrix-selfchecks-report.golden.md",
            "matrix-rates-fixture.json, matrix-rates-report.golden.md"})
    void theReportOfAStoredMatrixIsTheGoldenFile(String fixture, String golden) throws Exception {
        MatrixRecord matrix = JsonMapper.builder().build().readValue(DIRECTORY.resolve(fixture).toFile(),
                MatrixRecord.class);

        String markdown = ReportRenderer.markdown(ReportSources.of(matrix), "charts/", VerdictRule.DEFAULT);

        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(DIRECTORY.resolve(golden), markdown);
        }
        assertThat(markdown).isEqualTo(Files.readString(DIRECTORY.resolve(golden)));
        assertThat(markdown).contains("## Key results", "## Choosing an IO model", "## Metric definitions",
                "## Scope and caveats", "(/api/matrices/" + matrix.id() + ")");
        assertThat(ReportCharts.chartNames(ReportSources.of(matrix))).contains("throughput-1", "p99-1");
        assertThat(ReportCharts.chart(ReportSources.of(matrix), "throughput-1")).get(
                org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("<?xml").contains("<svg")
                .contains("round trips per second");
        assertThat(ReportRenderer.html(ReportSources.of(matrix), "charts/", VerdictRule.DEFAULT))
                .contains("<table>", "<img src=\"charts/throughput-1.svg\"", "color-scheme");
    }
}
