package io.loopbench.echo;

import io.loopbench.engine.EngineTestSupport;
import io.loopbench.ServiceHttpTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A standing echo server's life: started, measured against as a run's target, counted, stopped, released. */
class EchoServerApiTest extends ServiceHttpTest {

    @Test
    void aStandingEchoServerServesARunsTargetCountsItAndIsReleasedWhenStopped() throws Exception {
        long loopsBefore = EngineTestSupport.loopThreads();
        HttpResponse<String> started = post("/api/echo-servers", "{\"protocol\":\"udp\"}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
        JsonNode server = json.readTree(started.body());
        String id = server.get("id").asString();
        int echoPort = server.get("port").asInt();
        assertThat(echoPort).isPositive();
        assertThat(server.at("/request/bindAddress").asString()).isEqualTo("127.0.0.1");

        HttpResponse<String> run = post("/api/runs", """
                {"protocol":"udp","clients":2,"window":2,"payloadBytes":256,"warmupSeconds":0.2,"warmupMode":"fixed","seconds":0.5,
                 "repetitions":1,"isolation":"in-process","target":"127.0.0.1:%d"}""".formatted(echoPort));
        assertThat(run.statusCode()).as(run.body()).isEqualTo(202);
        String runId = json.readTree(run.body()).get("id").asString();
        JsonNode done = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            done = json.readTree(send(at("/api/runs/" + runId)).body());
            if (!done.get("status").asString().matches("queued|running")) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("succeeded");
        assertThat(done.at("/repetitions/0/remote").asBoolean()).isTrue();
        assertThat(done.at("/repetitions/0/serverAddress").asString()).endsWith(":" + echoPort);

        JsonNode counted = json.readTree(send(at("/api/echo-servers/" + id)).body());
        long messages = done.at("/repetitions/0/messages").asLong();
        assertThat(counted.at("/counts/datagrams").asLong()).isGreaterThanOrEqualTo(messages);
        assertThat(counted.at("/counts/bytes").asLong()).isEqualTo(256 * counted.at("/counts/datagrams").asLong());
        assertThat(counted.at("/counts/errors").asLong()).isZero();

        assertThat(send(at("/api/echo-servers/" + id).DELETE()).statusCode()).isEqualTo(204);
        HttpResponse<String> gone = send(at("/api/echo-servers/" + id));
        assertThat(gone.statusCode()).isEqualTo(404);
        assertThat(gone.body()).contains("\"title\":\"Echo server not found\"", "no echo server with id " + id);
        assertThat(EngineTestSupport.loopThreads()).isEqualTo(loopsBefore);
    }

    @Test
    void badRequestsNameTheFieldAndStartNothing() throws Exception {
        HttpResponse<String> r = post("/api/echo-servers",
                "{\"ioModel\":\"sharded\",\"work\":5,\"bindAddress\":\"198.51.100.1\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode problem = json.readTree(r.body());
        assertThat(problem.at("/violations/0/field").asString()).isEqualTo("ioModel");
        assertThat(problem.at("/violations/1/field").asString()).isEqualTo("work");
        assertThat(problem.at("/violations/2/field").asString()).isEqualTo("bindAddress");
        assertThat(json.readTree(send(at("/api/echo-servers")).body()).size()).isZero();

        HttpResponse<String> framed = post("/api/echo-servers", "{\"protocol\":\"https\",\"certsDirectory\":\"/nowhere\"}");
        assertThat(framed.statusCode()).isEqualTo(400);
        assertThat(json.readTree(framed.body()).at("/violations").findValuesAsString("field"))
                .containsExactly("certsDirectory", "payloadBytes");

        HttpResponse<String> privileged = post("/api/echo-servers", "{\"port\":80}");
        assertThat(privileged.statusCode()).isEqualTo(400);
        assertThat(json.readTree(privileged.body()).at("/violations/0/allowed").asString()).contains("1024");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < EchoServerService.MAX_SERVERS; i++) {
            HttpResponse<String> s = post("/api/echo-servers", "{}");
            assertThat(s.statusCode()).as(s.body()).isEqualTo(201);
            ids.add(json.readTree(s.body()).get("id").asString());
        }
        HttpResponse<String> oneTooMany = post("/api/echo-servers", "{}");
        assertThat(oneTooMany.statusCode()).isEqualTo(400);
        assertThat(json.readTree(oneTooMany.body()).at("/violations/0/field").asString()).isEqualTo("echoServers");
        for (String id : ids) {
            assertThat(send(at("/api/echo-servers/" + id).DELETE()).statusCode()).isEqualTo(204);
        }

        HttpResponse<String> target = post("/api/runs", "{\"target\":\"198.51.100.1:7\"}");
        assertThat(target.statusCode()).isEqualTo(400);
        assertThat(target.body()).contains("\"field\":\"target\"", "loopbench.network.allowed-cidrs is empty");
    }
}
