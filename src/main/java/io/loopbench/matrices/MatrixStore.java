package io.loopbench.matrices;

import io.loopbench.storage.JsonFileStore;
import tools.jackson.databind.ObjectMapper;

import java.nio.file.Path;
import java.util.Comparator;

/** Matrices, one JSON document each in {@code <data directory>/matrices} (see {@link JsonFileStore}). */
public class MatrixStore extends JsonFileStore<MatrixRecord> {

    public MatrixStore(Path directory, ObjectMapper json) {
        super(directory, json, MatrixRecord.class, MatrixRecord::id, MatrixRecord::schemaVersion,
                MatrixRecord.SCHEMA_VERSION,
                Comparator.comparing(MatrixRecord::createdAt).thenComparing(MatrixRecord::id).reversed());
    }
}
