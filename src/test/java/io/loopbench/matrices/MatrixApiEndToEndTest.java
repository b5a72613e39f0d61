package io.loopbench.matrices;

import io.loopbench.ServiceHttpTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A matrix over HTTP: queued, followed to the end, stored, reported, charted and compared. */
class MatrixApiEndToEndTest extends ServiceHttpTest {

    @Test
    void aMatrixRunsToTheEndAndIsReportedChartedAndCompared() throws Exception {
        HttpResponse<String> posted = post("/api/matrices", """
                {"protocols":["tcp"],"payloads":[256],"profiles":[{"clients":2,"window":2}],
                 "ioModels":["shared","sharded"],"ioThreads":[1,2],"seconds":0.3,"warmupSeconds":0.1,
                 "repetitions":2,"isolation":"in-process"}""");
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
        JsonNode queued = json.readTree(posted.body());
        String id = queued.get("id").asString();
        assertThat(queued.get("cases").size()).isEqualTo(3);
        assertThat(posted.headers().firstValue("Location")).contains("/api/matrices/" + id);

        JsonNode done = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            done = json.readTree(send(at("/api/matrices/" + id)).body());
            if (!done.get("status").asString().matches("queued|running")) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("succeeded");
        assertThat(json.readTree(Files.readString(dataDirectory.resolve("matrices").resolve(id + ".json"))))
                .isEqualTo(done);

        HttpResponse<String> md = send(at("/api/matrices/" + id + "/report"));
        assertThat(md.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v)
                .startsWith("text/markdown"));
        assertThat(md.body()).contains("## Key results", "has this group's highest throughput median");
        HttpResponse<String> html = send(at("/api/matrices/" + id + "/report").header("Accept", "text/html"));
        assertThat(html.body()).startsWith("<!doctype html>").contains("<img src=\"charts/throughput-1.svg\"");
        HttpResponse<String> svg = send(at("/api/matrices/" + id + "/charts/p99-1.svg"));
        assertThat(svg.headers().firstValue("Content-Type")).contains("image/svg+xml");
        assertThat(svg.body()).contains("<svg", "p99 RTT (µs)");
        assertThat(send(at("/api/matrices/" + id + "/charts/bogus.svg")).statusCode()).isEqualTo(404);

        JsonNode compared = json.readTree(send(at("/api/compare?baseline=" + id + "&candidate=" + id)).body());
        assertThat(compared.get("cases").size()).isEqualTo(3);
        assertThat(compared.at("/cases/0/throughputRatio").asDouble()).isEqualTo(1.0);
        assertThat(compared.at("/cases/0/throughputRangesOverlap").asBoolean()).isTrue();

        JsonNode page = json.readTree(send(at("/api/matrices?status=succeeded")).body());
        assertThat(page.at("/items/0/id").asString()).isEqualTo(id);
        assertThat(page.at("/items/0/completedCases").asInt()).isEqualTo(3);
    }

    @Test
    void anInvalidMatrixIs400NamingEveryBrokenRuleAndNothingIsStored() throws Exception {
        int before = json.readTree(send(at("/api/matrices")).body()).get("total").asInt();
        HttpResponse<String> r = post("/api/matrices", """
                {"protocols":[],"payloads":[64,64]}""");
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode problem = json.readTree(r.body());
        assertThat(problem.at("/violations/0/field").asString()).isEqualTo("protocols");
        assertThat(problem.at("/violations/1/field").asString()).isEqualTo("payloads");

        HttpResponse<String> tooLong = post("/api/matrices", "{\"seconds\":500,\"repetitions\":100}");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.body()).contains("loopbench.limits.max-matrix-seconds");
        assertThat(json.readTree(send(at("/api/matrices")).body()).get("total").asInt()).isEqualTo(before);
    }
}
