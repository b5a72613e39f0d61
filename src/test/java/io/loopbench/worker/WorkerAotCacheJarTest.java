package io.loopbench.worker;

import io.loopbench.SystemTest;
import io.loopbench.engine.process.ClassSharing;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service started with {@code java -jar}: its workers start from the AOT cache as a service started from classes
 * does, from the executable jar's extracted jars (Spring Boot's executable jar nests its libraries, which no class
 * archive can hold). Needs the packaged jar: a system test, run after {@code package}.
 */
@SystemTest
class WorkerAotCacheJarTest {

    private static Path executableJar() throws IOException {
        try (Stream<Path> jars = Files.list(Path.of("target"))) {
            return jars.filter(p -> p.toString().endsWith(".jar"))
                    .filter(p -> ExecutableJar.is(p.toString())).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no executable jar in target/: run ./mvnw verify"));
        }
    }

    @Test
    void workersOfAnExecutableJarStartFromTheCacheOverItsExtractedJars(@TempDir Path dir) throws Exception {
        Path jar = executableJar();
        List<String> options = List.of("-Xms32m", "-Xmx256m", "-XX:+UseSerialGC");
        WorkerAotCache cache = new WorkerAotCache(dir, options, 0.4);

        WorkerAotCache.Start start = cache.prepare(jar.toString(), () -> false);

        assertThat(start.aotCache()).as(start.note()).isTrue();
        assertThat(start.bootJar()).isFalse();
        List<String> entries = List.of(start.classpath().split(File.pathSeparator));
        assertThat(entries).hasSizeGreaterThan(10).allSatisfy(e -> {
            assertThat(Path.of(e)).isRegularFile().startsWith(dir.resolve("extracted"));
            assertThat(ExecutableJar.is(e)).isFalse();
        });
        long extractedAt = Files.getLastModifiedTime(dir.resolve("extracted/source.txt")).toMillis();

        RunSpec spec = RunSpec.builder().clients(2).window(2).warmupMode(WarmupMode.FIXED).warmupSeconds(0.1)
                .seconds(0.4).repetitions(1).build();
        Process worker = new ProcessBuilder(new WorkerLauncher(options, cache).command(spec, start))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String result = null;
        try {
            worker.getOutputStream().write((WorkerProtocol.line(new WorkerRequest(WorkerProtocol.VERSION, spec))
                    + "\n").getBytes(StandardCharsets.UTF_8));
            worker.getOutputStream().flush();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(worker.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    result = WorkerProtocol.event(line) instanceof WorkerEvent.Result ? line : result;
                }
            }
            assertThat(worker.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            WorkerLauncher.closeQuietly(worker);
            worker.destroyForcibly();
        }

        assertThat(result).isNotNull();
        WorkerEvent.Result r = (WorkerEvent.Result) WorkerProtocol.event(result);
        assertThat(r.result().repetitions()).singleElement()
                .satisfies(rep -> assertThat(rep.throughput().messages()).isPositive());
        assertThat(r.result().environment().classSharing()).isEqualTo(ClassSharing.AOT_CACHE);
        // the same jar again: neither extracted nor trained anew
        assertThat(cache.prepare(jar.toString(), () -> false).note()).isNull();
        assertThat(Files.getLastModifiedTime(dir.resolve("extracted/source.txt")).toMillis()).isEqualTo(extractedAt);
    }
}
