package io.loopbench.reports;

import io.loopbench.matrices.MatrixRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Markdown report of a stored matrix is exactly the golden file beside it. The fixture is a real matrix (TCP and
 * UDP, 1024 B, 16 clients × window 1, shared 1 and 2 and sharded 2, 3 in-process repetitions of 0.5 s, keepGoing)
 * measured on 2026-11-30 on the development machine and stored by the service as is. After an intended change to the report, regenerate the golden file with
 * {@code ./mvnw test -Dtest=MarkdownReportGoldenTest -Dgolden.update=true} and review the diff.
 */
class MarkdownReportGoldenTest {

    static final Path FIXTURE = Path.of("src/test/resources/reports/matrix-fixture.json");
    static final Path GOLDEN = Path.of("src/test/resources/reports/matrix-report.golden.md");

    @Test
    void theReportOfAStoredMatrixIsTheGoldenFile() throws Exception {
        MatrixRecord matrix = JsonMapper.builder().build().readValue(FIXTURE.toFile(), MatrixRecord.class);

        String markdown = ReportRenderer.markdown(ReportSources.of(matrix), "charts/");

        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(GOLDEN, markdown);
        }
        assertThat(markdown).isEqualTo(Files.readString(GOLDEN));
        assertThat(markdown).contains("## Key results", "## Choosing an IO model", "## Metric definitions",
                "## Scope and caveats", "(/api/matrices/" + matrix.id() + ")");
        assertThat(ReportRenderer.chartNames(ReportSources.of(matrix))).contains("throughput-1", "p99-1");
        assertThat(ReportRenderer.chart(ReportSources.of(matrix), "throughput-1")).get(
                org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("<?xml").contains("<svg")
                .contains("round trips per second");
        assertThat(ReportRenderer.html(ReportSources.of(matrix), "charts/"))
                .contains("<table>", "<img src=\"charts/throughput-1.svg\"", "color-scheme");
    }
}
