package io.loopbench.runs;

import io.loopbench.jobs.RunStatus;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.system.SystemInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import static org.assertj.core.api.Assertions.assertThat;

class RunStoreTest {

    static final ObjectMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    static RunRecord queued(String id, Instant created) {
        return RunRecord.queued(id, RunSpec.builder().seconds(1.0).build(), null, Isolation.IN_PROCESS, 5.5,
                created.truncatedTo(ChronoUnit.MILLIS), SystemInfo.current());
    }

    @Test
    void aSavedRunReadsBackIdenticallyAfterARestartAndLeavesNoTemporaryFile() throws Exception {
        RunStore store = new RunStore(dir, JSON);
        RunRecord r = queued("a", Instant.now());
        store.save(r);
        store.save(r.started(Instant.now().truncatedTo(ChronoUnit.MILLIS), io.loopbench.engine.spec.Transport.EPOLL));

        RunStore reopened = new RunStore(dir, JSON);

        assertThat(reopened.find("a")).contains(store.find("a").orElseThrow());
        assertThat(reopened.find("a").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("a.json");
        }
        assertThat(Files.readString(dir.resolve("a.json"))).contains("\"schemaVersion\" : 1");
    }

    @Test
    void aCorruptFileIsReportedAndSkippedButNeverDeleted() throws Exception {
        new RunStore(dir, JSON).save(queued("good", Instant.now()));
        Files.writeString(dir.resolve("torn.json"), "{\"schemaVersion\":1,\"id\":\"torn\",\"sta");
        Files.writeString(dir.resolve("future.json"), "{\"schemaVersion\":99,\"id\":\"future\"}");

        RunStore store = new RunStore(dir, JSON);

        assertThat(store.all()).extracting(RunRecord::id).containsExactly("good");
        assertThat(store.corruptFiles()).containsExactlyInAnyOrder("torn.json", "future.json");
        assertThat(dir.resolve("torn.json")).exists();
        assertThat(dir.resolve("future.json")).exists();
    }

    @Test
    void newestFirstAndDelete() {
        RunStore store = new RunStore(dir, JSON);
        Instant t = Instant.now();
        store.save(queued("old", t.minusSeconds(10)));
        store.save(queued("new", t));
        assertThat(store.newestFirst()).extracting(RunRecord::id).containsExactly("new", "old");

        store.delete("old");

        assertThat(store.find("old")).isEmpty();
        assertThat(dir.resolve("old.json")).doesNotExist();
        assertThat(new RunStore(dir, JSON).all()).extracting(RunRecord::id).containsExactly("new");
    }
}
