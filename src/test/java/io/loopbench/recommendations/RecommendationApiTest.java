package io.loopbench.recommendations;

import io.loopbench.ServiceHttpTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recommendations over HTTP: refused before any work with a problem naming each field, or accepted (202 with the
 * candidates and plan), listed, cancelled, stored, and reported as Markdown.
 */
class RecommendationApiTest extends ServiceHttpTest {

    @Test
    void aRecommendationThatCannotDecideIsRefusedNamingTheFieldAndNothingIsStored() throws Exception {
        int before = json.readTree(send(at("/api/recommendations")).body()).get("total").asInt();
        HttpResponse<String> refused = post("/api/recommendations", """
                {"load":{"protocol":"tcp","payloadBytes":5},"budgetSeconds":30,"ioModels":["shared"],
                 "ioThreads":[1,2],"transports":["nio"]}""");

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.headers().firstValue("Content-Type")).contains("application/problem+json");
        JsonNode problem = json.readTree(refused.body());
        assertThat(problem.at("/violations/0/field").asString()).isEqualTo("load.payloadBytes");
        assertThat(problem.get("violations").size()).isEqualTo(1);
        HttpResponse<String> tooShort = post("/api/recommendations", """
                {"load":{"protocol":"tcp"},"budgetSeconds":20,"ioModels":["shared"],"ioThreads":[1,2],
                 "transports":["nio"]}""");
        assertThat(tooShort.statusCode()).isEqualTo(400);
        assertThat(json.readTree(tooShort.body()).at("/violations/0/allowed").asString())
                .startsWith("at least 27 for these 2 candidates: a decision needs 2 rounds");
        assertThat(json.readTree(send(at("/api/recommendations")).body()).get("total").asInt()).isEqualTo(before);
    }

    @Test
    void aRecommendationIsAcceptedListedCancelledStoredAndReported() throws Exception {
        HttpResponse<String> posted = post("/api/recommendations", """
                {"load":{"protocol":"tcp","payloadBytes":128,"clients":2,"window":2,"seconds":1,
                 "warmupSeconds":0.1,"warmupMode":"fixed"},
                 "budgetSeconds":120,"ioModels":["shared"],"ioThreads":[1,2],"transports":["nio"]}""");
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
        JsonNode queued = json.readTree(posted.body());
        String id = queued.get("id").asString();
        assertThat(posted.headers().firstValue("Location")).contains("/api/recommendations/" + id);
        assertThat(queued.at("/candidates/1/ioThreads").asInt()).isEqualTo(2);
        assertThat(queued.at("/plan/firstLook").asInt()).isEqualTo(2);
        assertThat(queued.at("/verdict/outcome").asString()).isEqualTo("racing");

        JsonNode listed = json.readTree(send(at("/api/recommendations")).body());
        assertThat(listed.at("/items/0/id").asString()).isEqualTo(id);
        assertThat(listed.at("/items/0/candidates").asInt()).isEqualTo(2);

        assertThat(post("/api/recommendations/" + id + "/cancel", "").statusCode()).isEqualTo(200);
        JsonNode done = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            done = json.readTree(send(at("/api/recommendations/" + id)).body());
            if (!done.get("status").asString().matches("queued|running")) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(done.get("status").asString()).isEqualTo("cancelled");
        assertThat(done.at("/verdict/outcome").asString()).isIn("undecided", "none");
        assertThat(json.readTree(Files.readString(dataDirectory.resolve("recommendations").resolve(id + ".json"))))
                .isEqualTo(done);

        HttpResponse<String> md = send(at("/api/recommendations/" + id + "/report"));
        assertThat(md.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v)
                .startsWith("text/markdown"));
        assertThat(md.body()).contains("# Recommendation: tcp 128 B, 2 clients × window 2",
                "| shared 1 · nio · netty |", "## Method", "Bonferroni");
    }
}
