import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Status polls under load: 50 concurrent clients poll GET /api/runs/{id} while a 10-second forked run executes.
 * Starts the service (./mvnw spring-boot:run) on a free loopback port with a temporary data directory, posts the
 * run, warms the request path up during the run's warm-up, then, while the worker measures, lets 50 threads poll
 * over keep-alive connections for 4 s — each
 * every 100 ms (a brisk UI: 500 polls/s in all), and then each as fast as it can (a closed-loop stress, which
 * measures queueing at saturation) for 4 s more — and prints the latency percentiles of both as Markdown for
 * docs/performance.md. Not a test: run it on a quiet machine,
 * from the project directory, with a JDK 21+ (source-file mode):
 *
 *     $JDK/bin/java bench/Polls.java
 */
public class Polls {

    static final int CLIENTS = 50;
    static final Duration POLLING = Duration.ofSeconds(4);
    static final long INTERVAL_NANOS = Duration.ofMillis(100).toNanos();

    public static void main(String[] args) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path data = Files.createTempDirectory("loopbench-polls-");
        Process service = new ProcessBuilder("./mvnw", "-q", "spring-boot:run",
                "-Dspring-boot.run.arguments=--server.port=" + port + " --loopbench.data-directory=" + data)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String base = "http://127.0.0.1:" + port;
        try {
            waitFor(() -> get(http, base + "/actuator/health").statusCode() == 200, Duration.ofMinutes(2));
            HttpResponse<String> posted = http.send(HttpRequest.newBuilder(URI.create(base + "/api/runs"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"warmupSeconds\":3,\"seconds\":10,\"repetitions\":1,\"isolation\":\"forked\"}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            String id = field(posted.body(), "id");
            String runUrl = base + "/api/runs/" + id;
            // warm both JVMs' request paths up during the run's own 3 s warm-up; these polls are not counted
            waitFor(() -> get(http, runUrl).body().contains("\"phase\":\"warmup\""), Duration.ofSeconds(30));
            AtomicLong failures = new AtomicLong();
            poll(runUrl, 0, Duration.ofMillis(2500), failures);
            waitFor(() -> get(http, runUrl).body().contains("\"phase\":\"measured\""), Duration.ofSeconds(30));

            long[] paced = poll(runUrl, INTERVAL_NANOS, POLLING, failures);
            long[] flat = poll(runUrl, 0, POLLING, failures);
            waitFor(() -> !get(http, runUrl).body().contains("\"status\":\"running\""), Duration.ofSeconds(60));
            String finalRun = get(http, runUrl).body();
            System.out.printf(Locale.ROOT, "%d concurrent pollers (one thread and one keep-alive HttpURLConnection each) "
                            + "on GET /api/runs/{id} in the measured phase of a 10 s forked run, after 2.5 s of uncounted warm-up polls "
                            + "(the run ended %s with %.0f round "
                            + "trips/s). Each polling every 100 ms (%,d polls in %d s): p50 %.1f ms, **p99 %.1f "
                            + "ms**, max %.1f ms. Each polling as fast as it can (%,d polls in %d s): p50 %.1f ms, "
                            + "p99 %.1f ms, max %.1f ms. Failed polls: %d. Measured %s; command: "
                            + "`$JDK/bin/java bench/Polls.java`.%n",
                    CLIENTS, field(finalRun, "status"), Double.parseDouble(finalRun.replaceAll(
                            "(?s).*\"roundTripsPerSecond\":\\{\"median\":([0-9.E]+).*", "$1")),
                    paced.length, POLLING.toSeconds(), ms(paced, 0.50), ms(paced, 0.99),
                    paced[paced.length - 1] / 1e6,
                    flat.length, POLLING.toSeconds(), ms(flat, 0.50), ms(flat, 0.99), flat[flat.length - 1] / 1e6,
                    failures.get(), Instant.now().toString().substring(0, 16).replace('T', ' ') + " UTC");
        } finally {
            service.descendants().forEach(ProcessHandle::destroy);
            service.destroy();
            service.waitFor();
        }
    }

    /** 50 threads poll for the duration, each starting a poll every intervalNanos (0: back to back); sorted latencies. */
    static long[] poll(String url, long intervalNanos, Duration duration, AtomicLong failures)
            throws InterruptedException {
        long[][] samples = new long[CLIENTS][];
        long start = System.nanoTime();
        long stopAt = start + duration.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            threads.add(Thread.ofPlatform().start(() -> {
                long[] mine = new long[1 << 16];
                int n = 0;
                // spread the pollers' phases over one interval
                long next = start + intervalNanos * client / CLIENTS;
                while (next < stopAt && n < mine.length) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                    long t0 = System.nanoTime();
                    if (blockingGet(url) != 200) {
                        failures.incrementAndGet();
                    }
                    mine[n++] = System.nanoTime() - t0;
                    next = intervalNanos > 0 ? next + intervalNanos : System.nanoTime();
                }
                samples[client] = Arrays.copyOf(mine, n);
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return Arrays.stream(samples).flatMapToLong(Arrays::stream).sorted().toArray();
    }

    /**
     * One GET with the JDK's blocking HttpURLConnection: it keeps the connection alive per thread and needs no
     * selector thread, so the pollers add as little scheduling of their own as possible.
     */
    static int blockingGet(String url) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setConnectTimeout(10_000);
            c.setReadTimeout(10_000);
            int code = c.getResponseCode();
            try (InputStream in = code < 400 ? c.getInputStream() : c.getErrorStream()) {
                in.transferTo(OutputStream.nullOutputStream());
            }
            return code;
        } catch (IOException e) {
            return -1;
        }
    }

    static double ms(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))] / 1e6;
    }

    static HttpResponse<String> get(HttpClient http, String url) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }

    interface Check {
        boolean ok() throws Exception;
    }

    static void waitFor(Check check, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (check.ok()) {
                    return;
                }
            } catch (Exception e) {
                // not up yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("timed out after " + timeout);
    }
}
