package io.loopbench.web;

import io.loopbench.ServiceHttpTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * What the service refuses before doing any work, through real HTTP on its own port: requests for another site's
 * name (DNS rebinding), writes from another site's pages, oversized bodies and matrices, and what it answers
 * instead — always a problem document. Raw sockets, since an HTTP client will not send a forged {@code Host}.
 */
class RequestGuardTest extends ServiceHttpTest {

    /** One HTTP/1.1 exchange; the response's status line, headers and body as text. */
    private String raw(String method, String path, List<String> headers, byte[] body) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
            headers.forEach(h -> head.append(h).append("\r\n"));
            head.append("Connection: close\r\n");
            if (body != null && headers.stream().noneMatch(h -> h.startsWith("Transfer-Encoding"))) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("\r\n");
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                try {
                    out.write(body);
                } catch (java.io.IOException e) {
                    // the service may answer and close before it has read everything: what it said still counts
                }
            }
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            in.transferTo(response);
            return response.toString(StandardCharsets.UTF_8);
        }
    }

    private static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    private JsonNode body(String response) {
        String b = response.substring(response.indexOf("\r\n\r\n") + 4);
        if (response.toLowerCase().contains("transfer-encoding: chunked")) {
            b = b.substring(b.indexOf("\r\n") + 2, b.lastIndexOf("\r\n0\r\n"));
        }
        return json.readTree(b);
    }

    private String host() {
        return "Host: 127.0.0.1:" + port;
    }

    @Test
    void aRequestNamingAnotherHostIsRefusedAsAProblemAndLoopbackNamesAreAnswered() throws Exception {
        String evil = raw("GET", "/api/runs", List.of("Host: evil.example:" + port), null);
        assertThat(status(evil)).isEqualTo(403);
        assertThat(evil).containsIgnoringCase("Content-Type: application/problem+json");
        assertThat(body(evil).get("detail").asString()).contains("evil.example:" + port)
                .contains("loopbench.security.allowed-hosts");
        // the right name with another port is another origin too (a rebinding page on another port)
        assertThat(status(raw("GET", "/api/runs", List.of("Host: 127.0.0.1:1"), null))).isEqualTo(403);
        assertThat(status(raw("GET", "/api/runs", List.of(), null))).isEqualTo(400); // HTTP/1.1 without Host

        for (String name : List.of("127.0.0.1", "localhost", "LOCALHOST", "[::1]")) {
            assertThat(status(raw("GET", "/api/runs", List.of("Host: " + name + ":" + port), null))).as(name)
                    .isEqualTo(200);
        }
        assertThat(RequestGuard.allowedHosts("0.0.0.0", new SecurityProperties(List.of("bench.lan", "fd00::5"),
                org.springframework.util.unit.DataSize.ofKilobytes(1))))
                .containsExactlyInAnyOrder("localhost", "127.0.0.1", "[::1]", "bench.lan", "[fd00::5]");
        assertThat(RequestGuard.allowedHosts("10.0.0.7", new SecurityProperties(List.of(),
                org.springframework.util.unit.DataSize.ofKilobytes(1)))).contains("10.0.0.7");
    }

    @Test
    void aWriteFromAnotherSitesPageIsRefusedAndChangesNothing() throws Exception {
        byte[] run = "{\"seconds\":1,\"repetitions\":1,\"isolation\":\"in-process\"}".getBytes(StandardCharsets.UTF_8);
        String forged = raw("POST", "/api/runs", List.of(host(), "Content-Type: application/json",
                "Origin: http://evil.example"), run);
        assertThat(status(forged)).isEqualTo(403);
        assertThat(body(forged).get("type").asString()).endsWith("/foreign-origin");
        String fetched = raw("POST", "/api/runs/anything/cancel", List.of(host(), "Sec-Fetch-Site: cross-site"), null);
        assertThat(status(fetched)).isEqualTo(403);
        String sandboxed = raw("DELETE", "/api/runs/anything", List.of(host(), "Origin: null"), null);
        assertThat(status(sandboxed)).isEqualTo(403);
        assertThat(json.readTree(send(at("/api/runs")).body()).get("total").asInt()).isZero();

        // the service's own page may write: same scheme, name and port
        String own = raw("POST", "/api/runs", List.of(host(), "Content-Type: application/json",
                "Origin: http://127.0.0.1:" + port, "Sec-Fetch-Site: same-origin"),
                "{\"clients\":0}".getBytes(StandardCharsets.UTF_8));
        assertThat(status(own)).isEqualTo(400); // past the guard, refused for what it says
        assertThat(body(own).get("violations").get(0).get("field").asString()).isEqualTo("clients");
    }

    @Test
    void everyResponseSaysNosniffAndThePageAndDocumentsCarryAStrictContentSecurityPolicy() throws Exception {
        HttpResponse<String> page = send(at("/"));
        assertThat(page.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(page.headers().firstValue("Content-Security-Policy")).contains(RequestGuard.PAGE_POLICY);
        assertThat(RequestGuard.PAGE_POLICY).contains("script-src 'self'").doesNotContain("unsafe");
        HttpResponse<String> api = send(at("/api/runs"));
        assertThat(api.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(api.headers().firstValue("Content-Security-Policy")).contains(RequestGuard.API_POLICY);
        assertThat(RequestGuard.API_POLICY).startsWith("default-src 'none'").doesNotContain("script-src");
    }

    @Test
    void whatTheContainerSendsToTheErrorPageIsAProblemNotBootsDefaultErrorJson() throws Exception {
        HttpResponse<String> error = send(at("/error"));
        assertThat(error.headers().firstValue("Content-Type")).contains("application/problem+json");
        assertThat(json.readTree(error.body()).get("type").asString()).startsWith(ApiProblems.TYPE_BASE);
        assertThat(json.readTree(error.body()).has("timestamp")).isFalse();
    }

    @Test
    void anOversizedBodyIs413BeforeItIsReadWhetherItsLengthIsDeclaredOrStreamed() throws Exception {
        byte[] big = ("{\"payloads\":[" + IntStream.range(0, 100_000).mapToObj(i -> "16")
                .collect(Collectors.joining(",")) + "]}").getBytes(StandardCharsets.UTF_8);
        assertThat(big.length).isGreaterThan(256 * 1024);

        String declared = raw("POST", "/api/matrices", List.of(host(), "Content-Type: application/json"), big);
        assertThat(status(declared)).isEqualTo(413);
        assertThat(body(declared).get("detail").asString()).contains("loopbench.security.max-request-body-size");

        ByteArrayOutputStream chunked = new ByteArrayOutputStream();
        for (int i = 0; i < big.length; i += 8192) {
            int n = Math.min(8192, big.length - i);
            chunked.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            chunked.write(big, i, n);
            chunked.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        chunked.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        String streamed = raw("POST", "/api/matrices", List.of(host(), "Content-Type: application/json",
                "Transfer-Encoding: chunked"), chunked.toByteArray());
        assertThat(status(streamed)).isEqualTo(413);
        assertThat(body(streamed).get("type").asString()).endsWith("/body-too-large");
        assertThat(json.readTree(send(at("/api/matrices")).body()).get("total").asInt()).isZero();
    }

    @Test
    void aMatrixOfMillionsOfCasesIsRefusedFromItsListsLengthsAtOnce() {
        // the review's body: every case used to be built (and every one validated) before any limit was checked
        String lists = "{\"payloads\":[" + IntStream.rangeClosed(16, 4015).mapToObj(String::valueOf)
                .collect(Collectors.joining(",")) + "],\"work\":[" + IntStream.range(0, 1000).mapToObj(String::valueOf)
                .collect(Collectors.joining(",")) + "],\"ioThreads\":[" + IntStream.rangeClosed(1, 64)
                .mapToObj(String::valueOf).collect(Collectors.joining(",")) + "]}";
        String withinListCaps = "{\"payloads\":[" + IntStream.range(16, 80).mapToObj(String::valueOf)
                .collect(Collectors.joining(",")) + "],\"work\":[" + IntStream.range(0, 64).mapToObj(String::valueOf)
                .collect(Collectors.joining(",")) + "]}";
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            HttpResponse<String> tooLong = post("/api/matrices", lists);
            assertThat(tooLong.statusCode()).as(tooLong.body()).isEqualTo(400);
            assertThat(json.readTree(tooLong.body()).get("violations").findValuesAsString("field"))
                    .contains("payloads", "work");
            HttpResponse<String> tooMany = post("/api/matrices", withinListCaps);
            assertThat(tooMany.statusCode()).as(tooMany.body()).isEqualTo(400);
            assertThat(json.readTree(tooMany.body()).get("violations").get(0).get("field").asString())
                    .isEqualTo("cases×repetitions");
        });
    }

    @Test
    void nullElementsInfiniteNumbersAndUnknownEnumValuesAre400sNamingEveryField() throws Exception {
        HttpResponse<String> nulls = post("/api/matrices", "{\"payloads\":[64,null],\"p99BoundUs\":1e400}");
        assertThat(nulls.statusCode()).as(nulls.body()).isEqualTo(400);
        assertThat(json.readTree(nulls.body()).get("violations").findValuesAsString("field"))
                .containsExactlyInAnyOrder("payloads", "p99BoundUs");

        HttpResponse<String> all = post("/api/runs", "{\"protocol\":\"sctp\",\"payloadBytes\":8,\"clients\":0}");
        assertThat(all.statusCode()).as(all.body()).isEqualTo(400);
        JsonNode problem = json.readTree(all.body());
        assertThat(problem.get("violations").findValuesAsString("field"))
                .containsExactly("protocol", "payloadBytes", "clients");
        assertThat(problem.get("violations").get(0).get("allowed").asString()).isEqualTo("one of tcp, udp, tcps, websocket, wss, http, https, h2c, h2, grpc, grpcs");
        HttpResponse<String> listed = post("/api/matrices", "{\"protocols\":[\"tcp\",\"sctp\"],\"payloads\":[]}");
        assertThat(json.readTree(listed.body()).get("violations").findValuesAsString("field"))
                .containsExactly("protocols[1]", "payloads");
    }
}
