package io.loopbench.worker;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The forked workers' AOT cache (JDK 25+, JEPs 483 and 514): a file that a JVM started with {@code -XX:AOTCache}
 * maps at start, with the classes a training run loaded already loaded and linked, so that a fresh worker reaches its
 * first echo in about half the time (docs/performance.md, "Worker start"). It holds no method profiles (JEP 515's training
 * data is switched off): code compiled early from a training run's profiles made the measured steady state slower,
 * so a worker's JIT profiles and compiles its own case exactly as without the cache.
 *
 * <p>The JVM accepts such a cache only with the same JDK, the same flags that matter (the collector) and the same
 * classpath, of jars only: a classpath directory (target/classes under {@code spring-boot:run}) is copied into a jar
 * here, and the workers that use the cache start with that jar in its place; Spring Boot's executable jar, whose
 * classes are nested jars, is extracted once ({@code -Djarmode=tools extract}, Boot's own way to run its jars from
 * a class archive) and the workers start from the extracted jars. Everything lives under one directory (the data
 * directory's {@code worker-aot/}, or the command line's {@code target/worker-aot/}): {@code classpath/} (those
 * jars), {@code extracted/} (the executable jar's), {@code worker.aot}, {@code trained.json} (what it was trained
 * from and what training cost) and {@code training.log}.
 *
 * <p>Training is lazy: the first forked repetition that finds no cache for the current JDK, flags and classes runs
 * it, on the job runner's thread before starting its own worker, so that the training load (a few seconds of
 * {@link WorkerTraining}, then the JVM writing the cache) never overlaps a measurement. It is cancelled with that
 * repetition. A worker never depends on the cache: whenever there is none (training failed, was cancelled, or the
 * JVM refused the file) it starts as it would without, from the service's own classpath, and its stderr says why.
 * One training attempt per fingerprint per service life; a refused cache is not offered again until a restart.
 * Thread-safe.
 */
public final class WorkerAotCache {

    private static final Logger log = LoggerFactory.getLogger(WorkerAotCache.class);
    /** A training that runs longer is killed (it normally takes about 10 s). */
    private static final long TRAINING_LIMIT_SECONDS = 180;
    /** Seconds per case of {@link WorkerTraining}: enough to load every class of its paths, with no profiles to ripen. */
    public static final double TRAINING_SECONDS = 0.5;
    /** Classes only: the training run records no method profiles (a diagnostic flag of JDK 25). */
    static final List<String> CLASSES_ONLY = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining");

    /**
     * How a worker starts: its classpath and the flags that go with it, and a line for its stderr (null: none).
     *
     * @param aotCache whether it starts from the cache
     * @param bootJar  whether the classpath is Spring Boot's executable jar itself (its extraction failed), which
     *                 only Boot's launcher can start
     */
    public record Start(String classpath, List<String> jvmOptions, boolean aotCache, boolean bootJar, String note) {
        Start withoutNote() {
            return new Start(classpath, jvmOptions, aotCache, bootJar, null);
        }
    }

    /** What the cache was trained from (the fingerprint) and what training cost. */
    record Trained(String fingerprint, Instant trainedAt, double trainingSeconds, long cacheBytes) {
    }

    private final Path directory;
    private final List<String> jvmOptions;
    private final ObjectMapper json = JsonMapper.builder().build();
    private final double trainingSeconds;
    /** Why workers start without the cache for the rest of this service's life; null while it may be used. */
    private String unusable;
    private String failedFingerprint;
    /** Why the last training did not produce a cache. */
    private String failure;

    /**
     * @param directory       where the cache, its jars and its records live
     * @param jvmOptions      the workers' flags, which training uses too
     * @param trainingSeconds seconds per case of {@link WorkerTraining}
     */
    public WorkerAotCache(Path directory, List<String> jvmOptions, double trainingSeconds) {
        this.directory = directory.toAbsolutePath();
        this.jvmOptions = List.copyOf(jvmOptions);
        this.trainingSeconds = trainingSeconds;
        if (Runtime.version().feature() < 25) {
            unusable = "the JDK is " + Runtime.version() + "; AOT caches with method profiles need 25 or newer";
        }
    }

    /** A cache that is never used; every worker's stderr says {@code why}. */
    public static WorkerAotCache off(String why) {
        WorkerAotCache c = new WorkerAotCache(Path.of("."), List.of(), 0);
        c.unusable = why;
        return c;
    }

    /** Whether workers may start from the cache: false once it was found unusable or refused. */
    public synchronized boolean usable() {
        return unusable == null;
    }

    /**
     * How the next worker starts with this classpath (this JVM's): from the cache when there is a valid one, training
     * it first when there is none yet (unless {@code cancelled}), otherwise plainly.
     */
    public synchronized Start prepare(String classpath, BooleanSupplier cancelled) {
        if (unusable != null) {
            return plain(classpath, unusable);
        }
        if (ExecutableJar.is(classpath)) {
            try {
                classpath = ExecutableJar.extracted(Path.of(classpath), directory, TRAINING_LIMIT_SECONDS);
            } catch (IOException | RuntimeException e) {
                unusable = "the executable jar " + classpath + " could not be extracted: " + e.getMessage();
                log.warn("Workers start without an AOT cache: {}", unusable, e);
                return plain(classpath, unusable);
            }
        }
        try {
            List<Path> entries = Stream.of(classpath.split(File.pathSeparator)).filter(s -> !s.isEmpty())
                    .map(Path::of).filter(Files::exists).toList();
            String fingerprint = fingerprint(entries);
            List<Path> jars = jars(entries);
            String jarClasspath = String.join(File.pathSeparator, jars.stream().map(Path::toString).toList());
            Trained trained = trained();
            if (trained != null && trained.fingerprint().equals(fingerprint) && Files.isRegularFile(cache())
                    && jars.stream().allMatch(Files::isRegularFile)) {
                return fromCache(jarClasspath, null);
            }
            if (fingerprint.equals(failedFingerprint)) {
                return plain(classpath, failure);
            }
            Trained t = train(entries, jars, jarClasspath, fingerprint, cancelled);
            if (t != null) {
                return fromCache(jarClasspath, String.format(Locale.ROOT,
                        "loopbench: trained the workers' AOT cache in %.1f s (%.0f MiB): %s", t.trainingSeconds(),
                        t.cacheBytes() / 1048576.0, cache()));
            }
            if (!cancelled.getAsBoolean()) {
                failedFingerprint = fingerprint;
                log.warn("Workers start without an AOT cache: {}", failure);
            }
            return plain(classpath, failure);
        } catch (IOException | RuntimeException e) {
            unusable = "the AOT cache could not be prepared in " + directory + ": " + e;
            log.warn("Workers start without an AOT cache: {}", unusable, e);
            return plain(classpath, unusable);
        }
    }

    /**
     * A worker started from the cache found the JVM refusing it (its stderr has the JVM's reasons): later workers
     * start plainly, and the next service start trains a new cache.
     */
    public synchronized void refused() {
        unusable = "the JVM refused the AOT cache " + cache() + " (an earlier worker's stderr has its reasons)";
        log.warn("Workers start without an AOT cache: {}", unusable);
        try {
            Files.deleteIfExists(directory.resolve("trained.json"));
        } catch (IOException e) {
            log.warn("Could not delete {}", directory.resolve("trained.json"), e);
        }
    }

    private Start fromCache(String jarClasspath, String note) {
        return new Start(jarClasspath, List.of("-XX:AOTCache=" + cache()), true, false, note);
    }

    private static Start plain(String classpath, String why) {
        return new Start(classpath, List.of(), false, ExecutableJar.is(classpath),
                "loopbench: worker started without an AOT cache: " + why);
    }

    private Path cache() {
        return directory.resolve("worker.aot");
    }

    /** The record of the cache there is, or null: none, or one that cannot be read (then it is trained anew). */
    private Trained trained() {
        Path p = directory.resolve("trained.json");
        try {
            return Files.isRegularFile(p) ? json.readValue(p.toFile(), Trained.class) : null;
        } catch (RuntimeException e) {
            log.warn("Unreadable {}: the workers' AOT cache will be trained anew", p, e);
            return null;
        }
    }

    /**
     * Jars the directories and runs {@link WorkerTraining} recording the cache: its record, or null with
     * {@link #failure} saying why not.
     */
    private Trained train(List<Path> entries, List<Path> jars, String jarClasspath, String fingerprint,
                         BooleanSupplier cancelled) throws IOException {
        long started = System.nanoTime();
        Files.createDirectories(directory.resolve("classpath"));
        Files.deleteIfExists(directory.resolve("trained.json"));
        for (int i = 0; i < entries.size(); i++) {
            if (Files.isDirectory(entries.get(i))) {
                writeJar(entries.get(i), jars.get(i));
            }
        }
        Path output = directory.resolve("worker.aot.tmp");
        Path trainingLog = directory.resolve("training.log");
        Files.deleteIfExists(output);
        // marked as a worker is, and watching its stdin as a worker does: it exits when this service dies
        List<String> cmd = new ArrayList<>(List.of(WorkerLauncher.javaCommand(), WorkerLauncher.MARKER,
                WorkerLauncher.SERVICE_PID + ProcessHandle.current().pid()));
        cmd.addAll(jvmOptions);
        cmd.addAll(WorkerLauncher.COMMON_OPTIONS);
        cmd.addAll(CLASSES_ONLY);
        cmd.add("-XX:AOTCacheOutput=" + output);
        cmd.addAll(List.of("-cp", jarClasspath, WorkerTraining.class.getName(), String.valueOf(trainingSeconds)));
        Process process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(trainingLog.toFile()).start();
        long deadline = started + TimeUnit.SECONDS.toNanos(TRAINING_LIMIT_SECONDS);
        try { // its stdin is held open until the training ends
            while (!process.waitFor(50, TimeUnit.MILLISECONDS)) {
                if (cancelled.getAsBoolean() || System.nanoTime() - deadline > 0) {
                    WorkerLauncher.terminate(process);
                    failure = cancelled.getAsBoolean() ? "its training was cancelled with the repetition"
                            : "its training ran past " + TRAINING_LIMIT_SECONDS + " s and was killed";
                    return null;
                }
            }
        } catch (InterruptedException e) {
            WorkerLauncher.terminate(process);
            Thread.currentThread().interrupt();
            failure = "its training was interrupted";
            return null;
        } finally {
            WorkerLauncher.closeQuietly(process);
        }
        if (process.exitValue() != 0 || !Files.isRegularFile(output)) {
            failure = "its training exited with code " + process.exitValue() + ": "
                    + WorkerLauncher.lastLine(Files.readString(trainingLog, StandardCharsets.UTF_8)) + " (all in "
                    + trainingLog + ")";
            return null;
        }
        Files.move(output, cache(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Trained t = new Trained(fingerprint, Instant.now(), (System.nanoTime() - started) / 1e9, Files.size(cache()));
        json.writeValue(directory.resolve("trained.json").toFile(), t);
        log.info("Trained the workers' AOT cache in {} s ({} bytes): {}",
                String.format(Locale.ROOT, "%.1f", t.trainingSeconds()), t.cacheBytes(), cache());
        return t;
    }

    /** Each entry, a directory replaced by its jar (classpath/N-name.jar: N keeps two same-named ones apart). */
    private List<Path> jars(List<Path> entries) {
        List<Path> jars = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            Path e = entries.get(i);
            jars.add(Files.isDirectory(e)
                    ? directory.resolve("classpath").resolve(i + "-" + e.getFileName() + ".jar").toAbsolutePath()
                    : e);
        }
        return jars;
    }

    private static void writeJar(Path dir, Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
             Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted().toList()) {
                if (p.equals(dir)) {
                    continue;
                }
                String name = dir.relativize(p).toString().replace(File.separatorChar, '/');
                boolean isDir = Files.isDirectory(p);
                out.putNextEntry(new JarEntry(isDir ? name + "/" : name));
                if (!isDir) {
                    Files.copy(p, out);
                }
                out.closeEntry();
            }
        }
    }

    /**
     * What the cache depends on: the JDK, the flags (the workers' and training's own), the training workload's
     * length, and every classpath file's name, size and modification time (a directory's files one by one), so that a
     * rebuilt class retrains it.
     */
    private String fingerprint(List<Path> entries) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        List<String> parts = new ArrayList<>(List.of(System.getProperty("java.home"),
                System.getProperty("java.vm.version"), String.valueOf(trainingSeconds)));
        parts.addAll(jvmOptions);
        parts.addAll(CLASSES_ONLY);
        for (Path e : entries) {
            try (Stream<Path> files = Files.isDirectory(e) ? Files.walk(e) : Stream.of(e)) {
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    parts.add(f.toAbsolutePath() + " " + Files.size(f) + " " + Files.getLastModifiedTime(f).toMillis());
                }
            }
        }
        for (String p : parts) {
            sha.update(p.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
