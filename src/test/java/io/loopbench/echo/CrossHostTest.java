package io.loopbench.echo;

import io.loopbench.SystemTest;
import io.loopbench.ServiceHttpTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.loopbench.IpCommand.ip;
import static io.loopbench.IpCommand.removeLeftoversOfDeadTestJvms;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two hosts on one machine: a network namespace joined to this one by a veth pair, with addresses of the test's
 * own making, allow-listed for this service. A standing echo server the service starts on this side's address
 * serves a target run from the other side. Needs root (creating namespaces and links); skipped otherwise.
 */
@SystemTest
class CrossHostTest extends ServiceHttpTest {

    private static final String NAMESPACE = "loopbench-test-" + ProcessHandle.current().pid();
    private static final String HERE = "lbt" + ProcessHandle.current().pid() % 100_000 + "a";
    private static final String THERE = "lbt" + ProcessHandle.current().pid() % 100_000 + "b";
    /** A /30 of the private range, this side .1, the namespace's .2. */
    private static final String NET = "10.231.77.";

    @DynamicPropertySource
    static void allowTheLink(DynamicPropertyRegistry registry) {
        registry.add("loopbench.network.allowed-cidrs", () -> NET + "0/30");
    }

    @BeforeAll
    static void link() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "skipped: network namespaces and veth links need root");
        try {
            ip("netns", "add", NAMESPACE);
        } catch (IOException e) {
            Assumptions.abort("skipped: this machine does not let the tests create a network namespace (" + e
                    .getMessage().strip() + ")");
        }
        removeLeftoversOfDeadTestJvms();
        ip("link", "add", HERE, "type", "veth", "peer", "name", THERE);
        ip("link", "set", THERE, "netns", NAMESPACE);
        ip("addr", "add", NET + "1/30", "dev", HERE);
        ip("link", "set", HERE, "up");
        ip("-n", NAMESPACE, "addr", "add", NET + "2/30", "dev", THERE);
        ip("-n", NAMESPACE, "link", "set", THERE, "up");
        ip("-n", NAMESPACE, "link", "set", "lo", "up");
    }

    @AfterAll
    static void unlink() throws Exception {
        if ("root".equals(System.getProperty("user.name"))) {
            try {
                ip("link", "del", HERE); // takes its peer with it
            } catch (IOException e) {
                // never made
            }
            try {
                ip("netns", "del", NAMESPACE);
            } catch (IOException e) {
                // never made
            }
        }
    }

    @Test
    void aStandingEchoServerOnThisSideServesATargetRunFromTheOtherNamespace() throws Exception {
        HttpResponse<String> outside = post("/api/echo-servers", "{\"bindAddress\":\"10.231.78.1\"}");
        assertThat(outside.statusCode()).as("an address outside the allow-list").isEqualTo(400);
        HttpResponse<String> started = post("/api/echo-servers", "{\"bindAddress\":\"" + NET + "1\"}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
        JsonNode server = json.readTree(started.body());

        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", NAMESPACE, ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                io.loopbench.cli.LoopbenchCli.class.getName(), "measure", "--target",
                NET + "1:" + server.get("port").asInt(), "--clients", "2", "--window", "2", "--payload", "256",
                "--warmup", "0.3", "--warmup-mode", "fixed", "--seconds", "0.7", "--repetitions", "1"));
        Process run = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).isTrue();

        JsonNode result = json.readTree(out);
        JsonNode rep = result.at("/repetitions/0");
        rep.get("errors").properties().forEach(e -> assertThat(e.getValue().asLong()).as(e.getKey() + " " + out)
                .isZero());
        assertThat(rep.get("remote").asBoolean()).isTrue();
        assertThat(rep.get("serverAddress").asString()).contains(NET + "1");
        assertThat(rep.get("messages").asLong()).isPositive();
        JsonNode counted = json.readTree(send(at("/api/echo-servers/" + server.get("id").asString())).body());
        assertThat(counted.at("/counts/bytes").asLong()).isGreaterThanOrEqualTo(256 * rep.get("messages").asLong());
        assertThat(send(at("/api/echo-servers/" + server.get("id").asString()).DELETE()).statusCode())
                .isEqualTo(204);
    }
}
