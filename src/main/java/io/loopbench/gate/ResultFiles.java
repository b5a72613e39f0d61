package io.loopbench.gate;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.Summary;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.reports.CaseResult;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The cases of a result file, whichever wrote it: {@code ./loopbench measure}'s result, or a run or a matrix as the
 * service stores it ({@code runs/<id>.json}, {@code matrices/<id>.json} in its data directory) and its API answers
 * it. Each has a spec, its repetitions and a summary, at the top or per case. Stateless.
 */
public final class ResultFiles {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    private ResultFiles() {
    }

    /**
     * A file's cases.
     *
     * @throws IllegalArgumentException naming the file, when it cannot be read or holds no result
     */
    public static List<CaseResult> read(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (IOException | JacksonException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
        List<CaseResult> cases = new ArrayList<>();
        try {
            if (root.has("cases")) {
                for (JsonNode c : root.get("cases")) {
                    cases.add(kase(c));
                }
            } else if (root.has("spec") && root.has("repetitions")) {
                cases.add(kase(root));
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException(file + " is not a loopbench result: " + e.getOriginalMessage());
        }
        if (cases.isEmpty()) {
            throw new IllegalArgumentException(file + " is not a loopbench result: it has neither \"cases\" (a "
                    + "matrix) nor \"spec\" and \"repetitions\" (a run, or ./loopbench measure's output)");
        }
        return cases;
    }

    private static CaseResult kase(JsonNode c) {
        // a failed measurement may carry figures; only a passed one has a summary that counts
        boolean failed = c.has("ok") && c.get("ok").isBoolean() && !c.get("ok").booleanValue();
        Summary summary = c.hasNonNull("summary") && !failed ? JSON.treeToValue(c.get("summary"), Summary.class)
                : null;
        List<RepetitionResult> repetitions = new ArrayList<>();
        for (JsonNode r : c.get("repetitions")) {
            repetitions.add(JSON.treeToValue(r, RepetitionResult.class));
        }
        String error = c.hasNonNull("error") ? c.get("error").asString() : null;
        return new CaseResult(JSON.treeToValue(c.get("spec"), RunSpec.class),
                c.hasNonNull("transport") ? JSON.treeToValue(c.get("transport"), Transport.class) : null, summary,
                repetitions, summary != null ? null : error != null ? error : "no summary: it did not succeed");
    }
}
