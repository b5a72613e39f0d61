package io.loopbench.runs;

import io.loopbench.ServiceHttpTest;
import io.loopbench.engine.spec.SpecField;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The service as a user meets it: HTTP on a random port, a real run, SSE to the end, the stored file. */
class RunApiEndToEndTest extends ServiceHttpTest {

    @org.springframework.beans.factory.annotation.Autowired
    org.springframework.context.ApplicationContext context;

    @Test
    void theRunnerAndTheServicesAreReadyBeforeTheWebServerTakesARequestAndStopAfterIt() {
        int webServer = context.getBean("webServerStartStop", org.springframework.context.SmartLifecycle.class)
                .getPhase();
        for (org.springframework.context.SmartLifecycle s : List.of(context.getBean(io.loopbench.jobs.JobQueue.class),
                context.getBean(RunService.class), context.getBean(io.loopbench.matrices.MatrixService.class))) {
            // lower phases start first and stop last
            assertThat(s.getPhase()).as(s.getClass().getSimpleName()).isLessThan(webServer);
            assertThat(s.isRunning()).isTrue();
        }
        assertThat(context.getBean(io.loopbench.jobs.JobQueue.class).getPhase())
                .isLessThan(context.getBean(RunService.class).getPhase());
    }

    @Test
    void aShortInProcessRunIsFollowedOverSseToSucceededAndItsStoredFileIsWhatTheApiReturns() throws Exception {
        HttpResponse<String> posted = send(at("/api/runs")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"protocol":"tcp","clients":2,"window":2,"payloadBytes":256,"warmupSeconds":0.3,"warmupMode":"fixed",
                         "seconds":1.5,"repetitions":1,"isolation":"in-process"}""")));
        assertThat(posted.statusCode()).isEqualTo(202);
        JsonNode queued = json.readTree(posted.body());
        String id = queued.get("id").asString();
        assertThat(posted.headers().firstValue("Location")).contains("/api/runs/" + id);
        assertThat(queued.get("status").asString()).isEqualTo("queued");

        List<String> events = new ArrayList<>();
        String finished = null;
        HttpResponse<java.io.InputStream> stream = http.send(at("/api/runs/" + id + "/events")
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader r = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            String event = null;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("event:")) {
                    event = line.substring(6).trim();
                    events.add(event);
                } else if (line.startsWith("data:") && "finished".equals(event)) {
                    finished = line.substring(5);
                }
            }
        }
        assertThat(events).last().isEqualTo("finished");
        assertThat(events).filteredOn("progress"::equals).hasSizeGreaterThanOrEqualTo(2);
        JsonNode outcome = json.readTree(finished);
        assertThat(outcome.get("status").asString()).as(outcome.toString()).isEqualTo("succeeded");

        HttpResponse<String> got = send(at("/api/runs/" + id));
        JsonNode api = json.readTree(got.body());
        JsonNode stored = json.readTree(Files.readString(dataDirectory.resolve(id + ".json")));
        assertThat(stored).isEqualTo(api);
        assertThat(stored.get("schemaVersion").asInt()).isEqualTo(1);
        assertThat(stored.at("/summary/roundTripsPerSecond/median").asDouble()).isPositive();
        assertThat(stored.at("/system/logicalCpus").asInt()).isPositive();

        HttpResponse<String> late = send(at("/api/runs/" + id + "/events"));
        assertThat(late.body()).startsWith("event:finished");

        JsonNode page = json.readTree(send(at("/api/runs?status=succeeded&protocol=tcp"))
                .body());
        assertThat(page.get("items").get(0).get("id").asString()).isEqualTo(id);
        assertThat(page.get("items").get(0).at("/roundTripsPerSecond/median").asDouble()).isPositive();
    }

    @Test
    void operationsEndpointsDescribeTheService() throws Exception {
        JsonNode health = json.readTree(send(at("/actuator/health")).body());
        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.at("/components/runStore/details/dataDirectory").asString())
                .isEqualTo(dataDirectory.toAbsolutePath().toString());
        assertThat(health.at("/components/runStore/details/nativeTransports").has("epoll")).isTrue();

        JsonNode info = json.readTree(send(at("/actuator/info")).body());
        assertThat(info.at("/build/version").asString()).isNotEmpty();
        assertThat(info.at("/java/version").asString()).isNotEmpty();

        String prometheus = send(at("/actuator/prometheus")).body();
        assertThat(prometheus).contains("loopbench_runs{", "loopbench_queue_length");

        JsonNode system = json.readTree(send(at("/api/system")).body());
        assertThat(system.get("logicalCpus").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(system.get("nettyVersion").asString()).startsWith("4.2");

        JsonNode api = json.readTree(send(at("/v3/api-docs")).body());
        assertThat(api.at("/paths").has("/api/runs")).isTrue();
        assertThat(api.at("/paths").has("/api/runs/{id}/cancel")).isTrue();
        assertThat(api.at("/components/schemas/RunRequest/properties/payloadBytes/maximum").asInt()).isEqualTo(65507);
        assertThat(api.at("/components/schemas/RunRequest/properties/payloadBytes/default").asInt()).isEqualTo(1024);
        // result fields are documented from the records' Javadoc, units included
        assertThat(api.at("/components/schemas/Latency/properties/p99Us/description").asString()).contains("µs");
        assertThat(api.at("/components/schemas/CpuUsage/properties/percent/description").asString())
                .contains("one logical CPU");
        assertThat(api.at("/paths/~1api~1runs/post/requestBody/content/application~1json/examples")
                .has("tcp-1024B-16x16-shared1")).isTrue();
        // the run form builds its warm-up fields from these
        assertThat(api.at("/components/schemas/RunRequest/properties/warmupMode/enum").toString())
                .isEqualTo("[\"auto\",\"fixed\"]");
        assertThat(api.at("/components/schemas/RunRequest/properties/warmupMode/default").asString()).isEqualTo("auto");
        assertThat(api.at("/components/schemas/RunRequest/properties/warmupMaxSeconds/description").asString())
                .contains("cap");
        assertThat(api.at("/components/schemas/RepetitionResult/properties/warnings/description").asString())
                .contains("JIT-quiet");

        assertThat(send(at("/swagger-ui/index.html")).statusCode()).isEqualTo(200);
    }

    /**
     * The API describes every spec field as its declaration does, in the request and in the spec every result
     * echoes: range (an excluded minimum as OpenAPI's version writes it), default, values and help.
     */
    @Test
    void theApiSchemaOfEverySpecFieldIsItsDeclaration() throws Exception {
        JsonNode api = json.readTree(send(at("/v3/api-docs")).body());
        boolean openApi31 = api.get("openapi").asString().startsWith("3.1");
        for (String schema : List.of("RunRequest", "RunSpec")) {
            for (SpecField f : SpecField.values()) {
                JsonNode p = api.at("/components/schemas/" + schema + "/properties/" + f.field());
                assertThat(p.isMissingNode()).as(schema + "." + f.field()).isFalse();
                assertThat(p.get("description").asString()).as(f.field()).contains(f.help());
                if (f.range() != null) {
                    assertThat(p.get("maximum").asDouble()).as(f.field()).isEqualTo(f.range().max());
                    if (f.range().minExcluded() && openApi31) {
                        assertThat(p.get("exclusiveMinimum").asDouble()).as(f.field()).isEqualTo(f.range().min());
                    } else {
                        assertThat(p.get("minimum").asDouble()).as(f.field()).isEqualTo(f.range().min());
                        assertThat(p.path("exclusiveMinimum").asBoolean(false)).isEqualTo(f.range().minExcluded());
                    }
                }
                Object value = f.defaultValue();
                if (value instanceof Number n) {
                    assertThat(p.get("default").asDouble()).as(f.field()).isEqualTo(n.doubleValue());
                } else if (value != null) {
                    assertThat(p.get("default").asString()).as(f.field()).isEqualTo(f.defaultText());
                } else {
                    assertThat(p.has("default")).as(f.field()).isFalse();
                    assertThat(p.get("description").asString()).contains("Default: " + f.defaultText());
                }
                List<String> values = new ArrayList<>();
                p.path("enum").forEach(v -> values.add(v.asString()));
                assertThat(values).as(f.field()).isEqualTo(f.labels());
            }
        }
    }
}
