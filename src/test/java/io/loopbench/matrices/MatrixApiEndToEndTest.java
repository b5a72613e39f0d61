package io.loopbench.matrices;

import io.loopbench.ServiceHttpTest;
import io.loopbench.engine.spec.RunSpec;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A matrix over HTTP: queued, followed to the end, stored, reported (where its CPU time goes too), charted, compared
 * with itself, and its executions compared with each other.
 */
class MatrixApiEndToEndTest extends ServiceHttpTest {

    @Test
    void aMatrixRunsToTheEndAndIsReportedChartedAndCompared() throws Exception {
        // 1 s measured: the test needs every repetition to pass, and a repetition fails as stalled when one message
        // takes over a quarter of its phase — 75 ms of a 0.3 s phase, which a pause of this busy test JVM once took;
        // 0.5 s of warm-up: a profiler's start makes the JIT compile again, which then falls in the warm-up
        HttpResponse<String> posted = post("/api/matrices", """
                {"protocols":["tcp"],"payloads":[256],"profiles":[{"clients":2,"window":2}],
                 "ioModels":["shared"],"ioThreads":[1,2],"executions":["netty","reactive"],
                 "seconds":1.0,"warmupSeconds":0.5,"warmupMode":"fixed","repetitions":2,"isolation":"in-process",
                 "profiling":"cpu"}""");
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
        JsonNode queued = json.readTree(posted.body());
        String id = queued.get("id").asString();
        assertThat(queued.get("cases").size()).isEqualTo(4);
        assertThat(queued.at("/cases/1/spec/execution").asString()).isEqualTo("reactive");
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
        // such short phases may well not be JIT-quiet: then the pairs are counted "2 of 2 (n with warnings)"
        assertThat(md.body()).contains("## Key results", "has this group's highest throughput median",
                "## Executions, matched")
                .containsPattern("\\| reactive vs netty \\| 2 of 2( \\(\\d with warnings\\))? \\|");
        HttpResponse<String> html = send(at("/api/matrices/" + id + "/report").header("Accept", "text/html"));
        assertThat(html.body()).startsWith("<!doctype html>").contains("<img src=\"charts/throughput-1.svg\"");
        HttpResponse<String> svg = send(at("/api/matrices/" + id + "/charts/p99-1.svg"));
        assertThat(svg.headers().firstValue("Content-Type")).contains("image/svg+xml");
        assertThat(svg.body()).contains("<svg", "p99 RTT (µs)");
        assertThat(send(at("/api/matrices/" + id + "/charts/bogus.svg")).statusCode()).isEqualTo(404);
        // every repetition is profiled (async-profiler, else the flight recorder)
        assertThat(md.body()).contains("## Where the CPU time goes", "[flame graph](charts/flame-1.svg)");
        HttpResponse<String> flame = send(at("/api/matrices/" + id + "/charts/flame-1.svg"));
        assertThat(flame.headers().firstValue("Content-Type")).contains("image/svg+xml");
        assertThat(flame.body()).contains("<svg", "<rect", "<title>all threads: ");

        JsonNode compared = json.readTree(send(at("/api/compare?baseline=" + id + "&candidate=" + id)).body());
        assertThat(compared.get("cases").size()).isEqualTo(4);
        assertThat(compared.at("/cases/0/throughput/ratio").asDouble()).isEqualTo(1.0);
        // two repetitions a side (fewer where one warned), compared as two sources: the same figures are no
        // difference, and two are too few to show the ratio within the minimum effect
        assertThat(compared.at("/cases/0/throughput/decision").asString()).isIn("not_established",
                "too_few_repetitions");
        assertThat(compared.at("/cases/0/throughput/driftBound").asDouble()).isEqualTo(0.10);

        JsonNode gate = json.readTree(send(at("/api/gate?baseline=" + id + "&candidate=" + id)).body());
        // the matrix against itself, two repetitions a case: too few for the gate to pass any case
        assertThat(gate.get("verdict").asString()).isEqualTo("undecided");
        assertThat(gate.get("exitCode").asInt()).isEqualTo(2);
        assertThat(gate.get("cases").size()).isEqualTo(4);
        // (a repetition of so short a phase may also warn, and is then left out: fewer still)
        assertThat(gate.at("/cases/0/checks/0/words").asString()).contains("undecided: too few repetitions (");
        HttpResponse<String> junit = send(at("/api/gate?baseline=" + id + "&candidate=" + id + "&format=junit"));
        assertThat(junit.headers().firstValue("Content-Type")).contains("application/xml");
        assertThat(junit.body()).contains("<testsuite", "tests=\"8\"", "errors=\"8\"");
        HttpResponse<String> tooLoose = send(at("/api/gate?baseline=" + id + "&candidate=" + id + "&threshold=2"));
        assertThat(tooLoose.statusCode()).isEqualTo(400);
        assertThat(json.readTree(tooLoose.body()).get("detail").asString())
                .isEqualTo("threshold must be between 0 and 1 (a fraction: 0.05 is 5 %), not 2.0");

        JsonNode matched = json.readTree(send(at("/api/matrices/" + id + "/execution-comparison")).body());
        assertThat(matched.get("matrixId").asString()).isEqualTo(id);
        assertThat(matched.get("executions").toString()).isEqualTo("[\"netty\",\"reactive\"]");
        assertThat(matched.get("cases").size()).isEqualTo(2);
        JsonNode first = matched.at("/cases/0");
        assertThat(first.get("caseTitle").asString()).isEqualTo(
                "TCP / 256 B / 2 clients × window 2 / no added computation / shared 1");
        assertThat(first.get("execution").asString()).isEqualTo("reactive");
        assertThat(first.get("baseline").asString()).isEqualTo("netty");
        assertThat(first.get("pairs").asInt()).isEqualTo(2);
        for (String ratio : new String[] {"throughput", "cpu", "cpuPerRoundTrip"}) {
            JsonNode r = first.get(ratio);
            assertThat(r.get("ratio").asDouble()).isPositive();
            assertThat(r.get("paired").asBoolean()).isTrue();
            // two pairs, three ratios in a family: never enough to decide, and it says how many would be
            assertThat(r.get("decision").asString()).isEqualTo("too_few_repetitions");
            assertThat(r.get("needed").asInt()).isEqualTo(7);
        }
        HttpResponse<String> unknown = send(at("/api/matrices/no-such-matrix/execution-comparison"));
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.headers().firstValue("Content-Type")).contains("application/problem+json");
        // named for what was looked for, not as a run
        JsonNode missing = json.readTree(unknown.body());
        assertThat(missing.get("title").asString()).isEqualTo("Matrix not found");
        assertThat(missing.get("detail").asString()).isEqualTo("no matrix with id no-such-matrix");
        JsonNode unknownSide = json.readTree(send(at("/api/compare?baseline=" + id + "&candidate=nope")).body());
        assertThat(unknownSide.get("title").asString()).isEqualTo("Run or matrix not found");
        assertThat(unknownSide.get("detail").asString()).isEqualTo("no run or matrix with id nope");
        JsonNode api = json.readTree(send(at("/v3/api-docs")).body());
        assertThat(api.at("/paths").has("/api/matrices/{id}/execution-comparison")).isTrue();
        assertThat(api.at("/paths").has("/api/gate")).isTrue();
        // one protocol: nothing to compare it with
        assertThat(send(at("/api/matrices/" + id + "/protocol-costs")).body()).isEqualTo("[]");
        assertThat(send(at("/api/matrices/no-such-matrix/protocol-costs")).statusCode()).isEqualTo(404);
        assertThat(api.at("/components/schemas/ProtocolCost/properties/tlsCost/description").asString())
                .contains("without TLS");
        assertThat(api.at("/components/schemas/ExecutionRatios/properties/pairs/description").asString())
                .contains("repetition indexes");
        assertThat(api.at("/components/schemas/MatrixSpec/properties/executions/description").asString())
                .contains("baseline");
        assertThat(api.at("/components/schemas/MatrixSpec/properties/executions/items/enum").toString())
                .isEqualTo("[\"netty\",\"reactive\",\"virtual-threads\"]");
        // a matrix's lists, a profile's pair and a race's thread counts take the run spec's ranges, declared once
        assertThat(api.at("/components/schemas/MatrixSpec/properties/payloads/items/maximum").asInt())
                .isEqualTo(RunSpec.MAX_PAYLOAD);
        assertThat(api.at("/components/schemas/MatrixSpec/properties/payloads/description").asString())
                .endsWith("Each 16 … 65,507.");
        assertThat(api.at("/components/schemas/MatrixSpec/properties/warmupMaxSeconds/maximum").asDouble())
                .isEqualTo(RunSpec.MAX_SECONDS);
        assertThat(api.at("/components/schemas/Profile/properties/clients/maximum").asInt())
                .isEqualTo(RunSpec.MAX_CLIENTS);
        assertThat(api.at("/components/schemas/RecommendationSpec/properties/ioThreads/items/maximum").asInt())
                .isEqualTo(RunSpec.MAX_IO_THREADS);
        String protocols = "[\"tcp\",\"udp\",\"tcps\",\"websocket\",\"wss\",\"http\",\"https\",\"h2c\",\"h2\",\"grpc\",\"grpcs\"]";
        assertThat(api.at("/components/schemas/RunRequest/properties/protocol/enum").toString()).isEqualTo(protocols);
        assertThat(api.at("/components/schemas/MatrixSpec/properties/protocols/items/enum").toString())
                .isEqualTo(protocols);
        assertThat(api.at("/components/schemas/EchoServerRequest/properties/protocol/enum").toString())
                .isEqualTo(protocols);
        assertThat(api.at("/components/schemas/MatrixSpec/properties/warmupMode/description").asString())
                .contains("at most warmupMaxSeconds");
        assertThat(api.at("/components/schemas/CaseComparison/properties/warnings/description").asString())
                .contains("either side");

        JsonNode page = json.readTree(send(at("/api/matrices?status=succeeded")).body());
        assertThat(page.at("/items/0/id").asString()).isEqualTo(id);
        assertThat(page.at("/items/0/completedCases").asInt()).isEqualTo(4);
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

        HttpResponse<String> nothingLeft = post("/api/matrices", """
                {"executions":["virtual-threads"],"ioModels":["sharded"]}""");
        assertThat(nothingLeft.statusCode()).isEqualTo(400);
        assertThat(json.readTree(nothingLeft.body()).at("/violations/0/field").asString())
                .isEqualTo("executions×ioModels");

        HttpResponse<String> tooLong = post("/api/matrices", "{\"seconds\":500,\"repetitions\":30}");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.body()).contains("loopbench.limits.max-matrix-seconds");
        assertThat(json.readTree(send(at("/api/matrices")).body()).get("total").asInt()).isEqualTo(before);
    }
}
