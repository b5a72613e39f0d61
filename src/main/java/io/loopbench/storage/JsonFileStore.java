package io.loopbench.storage;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
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
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Records as one JSON document each ({@code <id>.json}) in a directory, written atomically: a temporary file in the
 * same directory, flushed to disk, renamed over the old one, and the directory flushed, so that a crash leaves
 * either the old or the new record, never a torn one; a write that fails (a full disk) removes its temporary file,
 * leaves the old record in place and throws {@link StorageException}. Reads are served from memory. Stored
 * documents are read tolerantly — fields this build does not know (written by a newer one) are ignored — but a file
 * that cannot be read as a record of the expected schema version is reported and skipped, never deleted.
 * Thread-safe: writes of one record are serialised by the caller, and the map is concurrent.
 *
 * @param <T> the record type
 */
public class JsonFileStore<T> {

    private static final Logger log = LoggerFactory.getLogger(JsonFileStore.class);
    static final String SUFFIX = ".json";

    private final Path directory;
    private final ObjectMapper json;
    private final ObjectReader reader;
    private final Class<T> type;
    private final Function<T, String> id;
    private final ToIntFunction<T> schemaVersion;
    private final int expectedSchemaVersion;
    private final Comparator<T> newestFirst;
    private final Map<String, T> records = new ConcurrentHashMap<>();
    private final List<String> corruptFiles = new CopyOnWriteArrayList<>();

    protected JsonFileStore(Path directory, ObjectMapper json, Class<T> type, Function<T, String> id,
                            ToIntFunction<T> schemaVersion, int expectedSchemaVersion, Comparator<T> newestFirst) {
        this.directory = directory;
        this.json = json;
        this.reader = json.readerFor(type).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        this.type = type;
        this.id = id;
        this.schemaVersion = schemaVersion;
        this.expectedSchemaVersion = expectedSchemaVersion;
        this.newestFirst = newestFirst;
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

    /** Files that could not be read as records: logged and skipped at start, never deleted. */
    public List<String> corruptFiles() {
        return List.copyOf(corruptFiles);
    }

    public Optional<T> find(String id) {
        return Optional.ofNullable(records.get(id));
    }

    public Collection<T> all() {
        return records.values();
    }

    public List<T> newestFirst() {
        List<T> list = new ArrayList<>(records.values());
        list.sort(newestFirst);
        return list;
    }

    /**
     * Writes the record durably, then makes it visible.
     *
     * @throws StorageException when it cannot be written; the stored record, if any, is unchanged
     */
    public void save(T record) {
        String key = id.apply(record);
        Path target = file(key);
        Path tmp = directory.resolve("." + key + ".tmp");
        byte[] bytes = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(record);
        try {
            write(tmp, ByteBuffer.wrap(bytes));
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            forceDirectory();
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw failure("cannot write " + key + " to " + target, e);
        }
        records.put(key, record);
    }

    private static void write(Path file, ByteBuffer bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(ch, bytes);
            ch.force(true);
        }
    }

    /** Writes until the buffer is empty: one call may write less (a nearly full disk, a signal). */
    static void writeFully(WritableByteChannel ch, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            ch.write(bytes);
        }
    }

    public void delete(String id) {
        try {
            Files.deleteIfExists(file(id));
            forceDirectory();
        } catch (IOException e) {
            throw failure("cannot delete " + id, e);
        }
        records.remove(id);
    }

    private static StorageException failure(String what, IOException e) {
        String reason = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        boolean full = reason != null && reason.contains("No space left");
        return new StorageException(what + ": " + reason, e, full);
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("Cannot remove the temporary file {}: {}", file, e.toString());
        }
    }

    private Path file(String id) {
        return directory.resolve(id + SUFFIX);
    }

    private void load() {
        // a write cut short by a crash leaves its temporary file; the record it was to replace is whole
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(directory, ".*.tmp")) {
            for (Path f : leftovers) {
                log.info("Removing {}, left by a write that a crash cut short", f.getFileName());
                deleteQuietly(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the data directory " + directory, e);
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path f : files) {
                try {
                    T r = reader.readValue(f.toFile());
                    String key = id.apply(r);
                    if (schemaVersion.applyAsInt(r) != expectedSchemaVersion || key == null
                            || !f.getFileName().toString().equals(key + SUFFIX)) {
                        throw new IOException("unexpected schemaVersion " + schemaVersion.applyAsInt(r) + " or id "
                                + key);
                    }
                    records.put(key, r);
                } catch (IOException | RuntimeException e) {
                    corruptFiles.add(f.getFileName().toString());
                    log.error("Skipping unreadable file {} (kept, not deleted): {}", f, e.toString());
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
