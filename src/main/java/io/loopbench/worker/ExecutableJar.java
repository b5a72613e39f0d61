package io.loopbench.worker;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Spring Boot's executable jar as a class path a class archive can hold: its classes sit under {@code BOOT-INF/} and
 * its libraries are nested jars, which neither a CDS archive nor an AOT cache accepts, so it is extracted with Boot's
 * own tool ({@code -Djarmode=tools extract}, Boot's answer for CDS and AOT) into plain jars. Stateless; one caller
 * per directory at a time ({@link WorkerAotCache} is synchronized).
 */
final class ExecutableJar {

    private ExecutableJar() {
    }

    /** Whether the class path is Spring Boot's executable jar (its classes under BOOT-INF/, its libraries nested). */
    static boolean is(String classpath) {
        if (classpath.contains(File.pathSeparator) || !classpath.endsWith(".jar")) {
            return false;
        }
        try (JarFile jar = new JarFile(classpath)) {
            return jar.getEntry("BOOT-INF/classes/") != null;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The executable jar's class path of plain jars: extracted once per jar (its path, size and time) into
     * {@code directory/extracted/} (its tool's output in {@code directory/extract.log}), the application's jar first,
     * then its libraries in the order its manifest lists them.
     *
     * @throws IOException when the tool failed or ran past {@code limitSeconds} (then it is killed)
     */
    static String extracted(Path bootJar, Path directory, long limitSeconds) throws IOException {
        Path target = directory.resolve("extracted");
        Path source = target.resolve("source.txt");
        String from = bootJar.toAbsolutePath() + " " + Files.size(bootJar) + " "
                + Files.getLastModifiedTime(bootJar).toMillis();
        if (!Files.isRegularFile(source) || !Files.readString(source).equals(from)) {
            Path tmp = directory.resolve("extracted.tmp");
            deleteTree(tmp);
            Files.createDirectories(directory);
            Path extractLog = directory.resolve("extract.log");
            Process p = new ProcessBuilder(WorkerLauncher.javaCommand(), "-Djarmode=tools", "-jar",
                    bootJar.toString(), "extract", "--destination", tmp.toString()).redirectErrorStream(true)
                    .redirectOutput(extractLog.toFile()).start();
            try {
                if (!p.waitFor(limitSeconds, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    WorkerLauncher.terminate(p);
                    throw new IOException("java -Djarmode=tools extract failed: "
                            + WorkerLauncher.lastLine(Files.readString(extractLog, StandardCharsets.UTF_8)));
                }
            } catch (InterruptedException e) {
                WorkerLauncher.terminate(p);
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while extracting " + bootJar);
            }
            Files.writeString(tmp.resolve("source.txt"), from);
            deleteTree(target);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        }
        Path app = target.resolve(bootJar.getFileName());
        List<String> entries = new ArrayList<>(List.of(app.toString()));
        try (JarFile jar = new JarFile(app.toFile())) {
            String listed = jar.getManifest().getMainAttributes().getValue("Class-Path");
            for (String lib : listed == null ? new String[0] : listed.trim().split("\\s+")) {
                entries.add(target.resolve(lib).toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
