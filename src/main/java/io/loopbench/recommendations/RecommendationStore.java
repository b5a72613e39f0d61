package io.loopbench.recommendations;

import io.loopbench.storage.JsonFileStore;
import tools.jackson.databind.ObjectMapper;

import java.nio.file.Path;
import java.util.Comparator;

/** Recommendations, one JSON document each in {@code <data directory>/recommendations} (see {@link JsonFileStore}). */
public class RecommendationStore extends JsonFileStore<RecommendationRecord> {

    public RecommendationStore(Path directory, ObjectMapper json) {
        super(directory, json, RecommendationRecord.class, RecommendationRecord::id,
                RecommendationRecord::schemaVersion, RecommendationRecord.SCHEMA_VERSION,
                Comparator.comparing(RecommendationRecord::createdAt).thenComparing(RecommendationRecord::id)
                        .reversed());
    }
}
