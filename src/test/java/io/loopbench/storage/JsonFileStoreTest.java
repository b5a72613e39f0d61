package io.loopbench.storage;

import io.loopbench.SystemTest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The store's writes on a disk that writes short or fills up, its lock, and its tolerance of newer documents. */
class JsonFileStoreTest {

    /** A minimal record: what the store needs (an id, a schema version) and something to fill a disk with. */
    record Doc(int schemaVersion, String id, String text) {
    }

    static final class DocStore extends JsonFileStore<Doc> {
        DocStore(Path dir) {
            super(dir, JsonMapper.builder().build(), Doc.class, Doc::id, Doc::schemaVersion, 1,
                    Comparator.comparing(Doc::id));
        }
    }

    @TempDir
    Path dir;

    @Test
    void aShortWriteIsCarriedOnUntilTheWholeBufferIsWritten() throws IOException {
        StringBuilder written = new StringBuilder();
        WritableByteChannel sevenAtATime = new WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) {
                int n = Math.min(7, src.remaining());
                byte[] b = new byte[n];
                src.get(b);
                written.append(new String(b, StandardCharsets.UTF_8));
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        String doc = "{\"schemaVersion\":1,\"id\":\"a\",\"text\":\"" + "x".repeat(100) + "\"}";

        JsonFileStore.writeFully(sevenAtATime, ByteBuffer.wrap(doc.getBytes(StandardCharsets.UTF_8)));

        assertThat(written.toString()).isEqualTo(doc);
    }

    @Test
    @SystemTest
    void aFullDiskLeavesTheStoredRecordWholeRemovesTheTemporaryFileAndSaysTheDiskIsFull() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "skipped: mounting a small file system to fill needs root");
        Path small = Files.createDirectories(dir.resolve("small"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", small.toString())
                .redirectErrorStream(true).start();
        Assumptions.assumeTrue(mount.waitFor(10, TimeUnit.SECONDS) && mount.exitValue() == 0,
                "skipped: this machine does not let the tests mount a tmpfs");
        try {
            DocStore store = new DocStore(small);
            Doc good = new Doc(1, "run", "measured");
            store.save(good);

            assertThatThrownBy(() -> store.save(new Doc(1, "run", "x".repeat(200_000))))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.diskFull()).isTrue();
                        assertThat(e.getMessage()).contains("No space left");
                    });

            assertThat(store.find("run")).contains(good);
            assertThat(new DocStore(small).find("run")).contains(good);
            try (var files = Files.list(small)) {
                assertThat(files.map(p -> p.getFileName().toString())).containsExactly("run.json");
            }
        } finally {
            new ProcessBuilder("umount", small.toString()).start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aTemporaryFileLeftByAWriteACrashCutShortIsRemovedAtStartAndTheRecordReadsWhole() throws IOException {
        new DocStore(dir).save(new Doc(1, "run", "before"));
        Files.writeString(dir.resolve(".run.tmp"), "{\"schemaVersion\":1,\"id\":\"run\",\"te");

        DocStore store = new DocStore(dir);

        assertThat(store.find("run")).contains(new Doc(1, "run", "before"));
        assertThat(dir.resolve(".run.tmp")).doesNotExist();
        assertThat(store.corruptFiles()).isEmpty();
    }

    @Test
    void aDocumentWithFieldsThisBuildDoesNotKnowIsStillRead() throws IOException {
        Files.writeString(dir.resolve("newer.json"),
                "{\"schemaVersion\":1,\"id\":\"newer\",\"text\":\"t\",\"fieldOfALaterBuild\":{\"x\":1}}");

        DocStore store = new DocStore(dir);

        assertThat(store.find("newer")).contains(new Doc(1, "newer", "t"));
        assertThat(store.corruptFiles()).isEmpty();
    }

    @Test
    void oneServicePerDataDirectoryTheSecondToldWhoHoldsIt() {
        try (DirectoryLock first = DirectoryLock.take(dir)) {
            assertThatThrownBy(() -> DirectoryLock.take(dir)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("in use by another loopbench service")
                    .hasMessageContaining("pid " + ProcessHandle.current().pid())
                    .hasMessageContaining("loopbench.data-directory");
        }
        DirectoryLock.take(dir).close(); // released with its holder
    }
}
