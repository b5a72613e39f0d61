package io.loopbench.runs;

import io.loopbench.storage.JsonFileStore;
import tools.jackson.databind.ObjectMapper;

import java.nio.file.Path;
import java.util.Comparator;

/** Runs, one JSON document each in the data directory (see {@link JsonFileStore} and docs/storage.md). */
public class RunStore extends JsonFileStore<RunRecord> {

    public RunStore(Path directory, ObjectMapper json) {
        super(directory, json, RunRecord.class, RunRecord::id, RunRecord::schemaVersion, RunRecord.SCHEMA_VERSION,
                Comparator.comparing(RunRecord::createdAt).thenComparing(RunRecord::id).reversed());
    }
}
