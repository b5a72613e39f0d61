package io.loopbench.runs;

import io.loopbench.worker.WorkerLauncher;
import io.loopbench.SystemTest;
import io.loopbench.jobs.WorkerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service as its own process, killed outright ({@code kill -9}) at random points of forked runs — before, during
 * and after a repetition — and started again on the same data directory, {@value #KILLS} times: no worker outlives
 * the service that started it, no record is torn or lost, and in the end every run is succeeded, failed, cancelled or
 * interrupted. The kills spread over the whole window after a submission: each falls at a random point of its own
 * slice of it, the slices in random order. The service runs from the build's classes with the test's class path
 * (its directories jarred, since a class-data archive cannot hold a directory's classes), with C1 only and a
 * class-data archive of its own start, so that the starts fit in the suite.
 */
@SystemTest
@Execution(ExecutionMode.CONCURRENT) // its load runs in processes of its own: beside the other system tests
class ServiceCrashTest {

    static final int KILLS = 12;
    /** The kills fall within this many milliseconds of a submission. */
    private static final int WINDOW_MS = 2_500;
    private static final Set<String> ENDED = Set.of("succeeded", "failed", "cancelled", "interrupted");
    private static final String RUN = """
            {"clients":1,"window":1,"payloadBytes":64,"warmupSeconds":0.1,"warmupMode":"fixed","seconds":0.4,
             "repetitions":2}""";

    /** The workers' AOT cache is off where kills must find workers measuring (see the last test for its training). */
    private static final String NO_AOT_CACHE = "--loopbench.worker.aot-cache=false";

    @TempDir
    Path dir;

    private final ObjectMapper json = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process service;
    private int port;
    private String classpath;

    @AfterEach
    void stop() throws InterruptedException {
        if (service != null) {
            service.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Starts the service (or, with {@code dumpArchive}, records its class-data archive) with {@code options}. A free
     * port is found by binding port 0 and letting it go; an outgoing connection of the runs may take that same
     * ephemeral port before the service binds it, so a start refused for a port in use is tried again on another.
     */
    private void start(Path archive, boolean dumpArchive, String... options) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            if (startOn(archive, dumpArchive, options)) {
                return;
            }
            String log = Files.readString(dir.resolve("service.log"));
            assertThat(log.contains("Port " + port + " was already in use") && attempt < 5).as(log).isTrue();
        }
    }

    /** Starts the service on {@link #port}; false if it ended before it listened. */
    private boolean startOn(Path archive, boolean dumpArchive, String... options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(WorkerLauncher.javaCommand(), "-XX:TieredStopAtLevel=1",
                "-Xlog:disable", "-Xlog:all=error:stderr"));
        cmd.add(dumpArchive ? "-XX:ArchiveClassesAtExit=" + archive : "-XX:SharedArchiveFile=" + archive);
        if (dumpArchive) {
            cmd.add("-Dspring.context.exit=onRefresh"); // Boot's training run: start, then exit and dump
        }
        cmd.addAll(List.of("-cp", classpath, "io.loopbench.LoopbenchApplication",
                "--server.port=" + port, "--loopbench.data-directory=" + dir.resolve("data"),
                "--spring.main.banner-mode=off", "--logging.level.root=WARN", "--spring.jmx.enabled=false"));
        cmd.addAll(List.of(options));
        service = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("service.log").toFile()).start();
        if (dumpArchive) {
            assertThat(service.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(archive).as("the class-data archive (%s)", Files.readString(dir.resolve("service.log")))
                    .isNotEmptyFile();
            return true;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            if (!service.isAlive()) {
                return false;
            }
            try {
                if (get("/api/runs?limit=1").statusCode() == 200) {
                    return true;
                }
            } catch (IOException e) {
                // not listening yet
            }
            assertThat(System.nanoTime()).as("the service started within 120 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** The test's class path with each directory replaced by a jar of it (same order, same classes). */
    private String jarredClasspath() throws IOException {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(e);
            if (!e.isEmpty() && Files.isDirectory(p)) {
                Path jar = dir.resolve("classpath-" + entries.size() + ".jar");
                try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                     Stream<Path> files = Files.walk(p)) {
                    for (Path f : files.filter(f -> !f.equals(p)).sorted().toList()) {
                        String name = p.relativize(f).toString().replace(File.separatorChar, '/');
                        out.putNextEntry(new JarEntry(Files.isDirectory(f) ? name + "/" : name));
                        if (Files.isRegularFile(f)) {
                            Files.copy(f, out);
                        }
                        out.closeEntry();
                    }
                }
                entries.add(jar.toString());
            } else if (!e.isEmpty()) {
                entries.add(e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Live workers started by the service with this pid (the service names itself on their command line). */
    private static List<ProcessHandle> workersOf(long servicePid) {
        String mine = WorkerLauncher.SERVICE_PID + servicePid + " ";
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                .map(c -> c.contains(WorkerLauncher.MARKER) && c.contains(mine)).orElse(false)).toList();
    }

    /** Every stored document reads as JSON: none torn (a kill mid-write may leave a temporary file beside them). */
    private List<JsonNode> stored() throws IOException {
        List<JsonNode> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir.resolve("data"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                all.add(json.readTree(f.toFile()));
            }
        }
        return all;
    }

    /** A started service has removed what a write cut short left. */
    private void noTemporaryFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("data"))) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void killedOutrightTwelveTimesTheServiceLeavesNoWorkerRunningAndLosesOrTearsNoRecord() throws Exception {
        classpath = jarredClasspath();
        Path archive = dir.resolve("service.jsa");
        start(archive, true);
        Random random = new Random(20261201);
        List<Integer> slices = new ArrayList<>(IntStream.range(0, KILLS).boxed().toList());
        Collections.shuffle(slices, random);
        List<String> accepted = new ArrayList<>();
        int killedDuringAWorker = 0;
        for (int kill = 1; kill <= KILLS; kill++) {
            start(archive, false, NO_AOT_CACHE); // the cache's training would hold back every first worker
            noTemporaryFiles();
            for (String id : accepted) {
                HttpResponse<String> r = get("/api/runs/" + id);
                assertThat(r.statusCode()).as("run %s accepted before kill %d", id, kill).isEqualTo(200);
            }
            HttpResponse<String> posted = post("/api/runs", RUN);
            assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
            accepted.add(json.readTree(posted.body()).get("id").asString());
            // before a worker starts, while one measures, between repetitions, after the run
            Thread.sleep((slices.get(kill - 1) * WINDOW_MS + random.nextInt(WINDOW_MS)) / KILLS);
            long pid = service.pid();
            killedDuringAWorker += workersOf(pid).isEmpty() ? 0 : 1;
            service.destroyForcibly().waitFor(10, TimeUnit.SECONDS);

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!workersOf(pid).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(workersOf(pid)).as("workers of the service killed at kill %d", kill).isEmpty();
            assertThat(stored()).hasSize(accepted.size());
        }
        assertThat(killedDuringAWorker).as("kills while a worker measured").isPositive();

        start(archive, false, NO_AOT_CACHE);
        noTemporaryFiles();
        for (JsonNode r : json.readTree(get("/api/runs?limit=200").body()).get("items")) {
            if (!ENDED.contains(r.get("status").asString())) {
                post("/api/runs/" + r.get("id").asString() + "/cancel", "");
            }
        }
        List<JsonNode> runs = stored();
        assertThat(runs).extracting(r -> r.get("id").asString()).containsExactlyInAnyOrderElementsOf(accepted);
        assertThat(runs).allSatisfy(r -> assertThat(ENDED).contains(r.get("status").asString()));
        assertThat(runs).anySatisfy(r -> assertThat(r.get("status").asString()).isEqualTo("interrupted"));
        long pid = service.pid();
        service.destroy(); // a graceful stop ends what runs and leaves nothing either
        assertThat(service.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(workersOf(pid)).isEmpty();
    }

    /**
     * The first forked repetition of a service with the default settings trains the workers' AOT cache in a JVM of
     * its own; a service killed outright meanwhile leaves it running no longer than it takes to see its stdin end:
     * its log says so, and it left no cache.
     */
    @Test
    void killedWhileItTrainsTheWorkersAotCacheTheServiceLeavesNoTrainingRunning() throws Exception {
        classpath = jarredClasspath();
        Path archive = dir.resolve("service.jsa");
        start(archive, true);
        start(archive, false);
        HttpResponse<String> posted = post("/api/runs", RUN);
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
        long pid = service.pid();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (workersOf(pid).stream().noneMatch(ServiceCrashTest::training)) {
            assertThat(System.nanoTime()).as("the cache's training started within 120 s").isLessThan(deadline);
            Thread.sleep(20);
        }

        service.destroyForcibly().waitFor(10, TimeUnit.SECONDS);

        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!workersOf(pid).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(workersOf(pid)).isEmpty();
        Path cache = dir.resolve("data").resolve("worker-aot");
        assertThat(Files.readString(cache.resolve("training.log")))
                .contains("the service that started this worker is gone (stdin closed); exiting");
        assertThat(cache.resolve("worker.aot")).doesNotExist();
    }

    private static boolean training(ProcessHandle p) {
        return p.info().commandLine().map(c -> c.contains("-XX:AOTCacheOutput=")).orElse(false);
    }
}
