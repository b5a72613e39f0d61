package io.loopbench.gate;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.Summary;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.reports.CaseResult;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cases of a result file, whichever wrote it: {@code ./loopbench measure}'s result, or a run or a matrix as the
 * service stores it ({@code <id>.json}, {@code matrices/<id>.json} in its data directory) and its API answers
 * it. Each has a spec, its repetitions and a summary, at the top or per case. A file may hold several results one
 * after another (as {@code ./loopbench measure … >> file} appends them): the repetitions of one case are then joined
 * in the file's order and numbered from 1, so that the i-th measured of each side can be paired, and the case
 * passed when every part did. Stateless.
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
        List<JsonNode> roots = new ArrayList<>();
        try (MappingIterator<JsonNode> values = JSON.readerFor(JsonNode.class).readValues(Files.readString(file))) {
            values.forEachRemaining(roots::add);
        } catch (IOException | JacksonException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
        Map<String, List<CaseResult>> parts = new LinkedHashMap<>();
        try {
            for (JsonNode root : roots) {
                if (root.has("cases")) {
                    for (JsonNode c : root.get("cases")) {
                        add(parts, kase(c));
                    }
                } else if (root.has("spec") && root.has("repetitions")) {
                    add(parts, kase(root));
                } else {
                    parts.clear();
                    break;
                }
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException(file + " is not a loopbench result: " + e.getOriginalMessage());
        }
        List<CaseResult> cases = parts.values().stream().map(ResultFiles::joined).toList();
        if (cases.isEmpty()) {
            throw new IllegalArgumentException(file + " is not a loopbench result: it has neither \"cases\" (a "
                    + "matrix) nor \"spec\" and \"repetitions\" (a run, or ./loopbench measure's output)");
        }
        return cases;
    }

    private static void add(Map<String, List<CaseResult>> parts, CaseResult c) {
        parts.computeIfAbsent(c.caseKey(), k -> new ArrayList<>()).add(c);
    }

    /** A case's parts as one: repetitions in order, numbered from 1; summarised again when every part passed. */
    private static CaseResult joined(List<CaseResult> parts) {
        if (parts.size() == 1) {
            return parts.getFirst();
        }
        List<RepetitionResult> reps = new ArrayList<>();
        for (CaseResult part : parts) {
            part.repetitions().forEach(r -> reps.add(r.withRepetition(reps.size() + 1)));
        }
        CaseResult failed = parts.stream().filter(p -> !p.ok()).findFirst().orElse(null);
        CaseResult first = parts.getFirst();
        return new CaseResult(first.spec().toBuilder().repetitions(reps.size()).build(), first.transport(),
                failed == null ? Summary.of(reps) : null, reps, failed == null ? null : failed.error());
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
