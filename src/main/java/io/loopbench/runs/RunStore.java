package io.loopbench.runs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Runs as one JSON document each ({@code <id>.json}) in the data directory, written atomically: a temporary file
 * in the same directory, flushed to disk, renamed over the old one, and the directory flushed, so that a crash
 * leaves either the old or the new record, never a torn one. Reads are served from memory. Thread-safe: writes
 * of one run are serialised by the caller (the runner or a request), and the map is concurrent.
 */
public class RunStore {

    private static final Logger log = LoggerFactory.getLogger(RunStore.class);
    static final String SUFFIX = ".json";

    private final Path directory;
    private final ObjectMapper json;
    private final Map<String, RunRecord> runs = new ConcurrentHashMap<>();
    private final List<String> corruptFiles = new CopyOnWriteArrayList<>();

    public RunStore(Path directory, ObjectMapper json) {
        this.directory = directory;
        this.json = json;
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the data directory " + directory, e);
        }
        load();
    }

    public Path directory() {
        return directory;
    }

    /** Files that could not be read as runs: logged and skipped at start, never deleted. */
    public List<String> corruptFiles() {
        return List.copyOf(corruptFiles);
    }

    public Optional<RunRecord> find(String id) {
        return Optional.ofNullable(runs.get(id));
    }

    public Collection<RunRecord> all() {
        return runs.values();
    }

    /** Newest first. */
    public List<RunRecord> newestFirst() {
        List<RunRecord> list = new ArrayList<>(runs.values());
        list.sort(Comparator.comparing(RunRecord::createdAt).thenComparing(RunRecord::id).reversed());
        return list;
    }

    /** Writes the record durably, then makes it visible. */
    public void save(RunRecord record) {
        Path target = file(record.id());
        Path tmp = directory.resolve("." + record.id() + ".tmp");
        try {
            byte[] bytes = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(record);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(java.nio.ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            forceDirectory();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write run " + record.id() + " to " + target, e);
        }
        runs.put(record.id(), record);
    }

    public void delete(String id) {
        try {
            Files.deleteIfExists(file(id));
            forceDirectory();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete run " + id, e);
        }
        runs.remove(id);
    }

    private Path file(String id) {
        return directory.resolve(id + SUFFIX);
    }

    private void load() {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path f : files) {
                try {
                    RunRecord r = json.readValue(f.toFile(), RunRecord.class);
                    if (r.schemaVersion() != RunRecord.SCHEMA_VERSION || r.id() == null
                            || !f.getFileName().toString().equals(r.id() + SUFFIX)) {
                        throw new IOException("unexpected schemaVersion " + r.schemaVersion() + " or id " + r.id());
                    }
                    runs.put(r.id(), r);
                } catch (IOException | RuntimeException e) {
                    corruptFiles.add(f.getFileName().toString());
                    log.error("Skipping unreadable run file {} (kept, not deleted): {}", f, e.toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the data directory " + directory, e);
        }
    }

    private void forceDirectory() {
        // Makes the rename itself durable; not every file system allows opening a directory, hence best effort.
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            log.debug("directory fsync not supported for {}: {}", directory, e.toString());
        }
    }
}
