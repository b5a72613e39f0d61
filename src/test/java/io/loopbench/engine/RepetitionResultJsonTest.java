package io.loopbench.engine;

import io.loopbench.engine.spec.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The result's groups are a matter of the code only: a record stored before them (by 8e1ab4c, the commit before the
 * groups: a profiled tcps measurement with timelines and warnings, and an open-load UDP one) reads back and writes
 * out the same JSON, field for field, and each field lands in its group.
 */
class RepetitionResultJsonTest {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private static JsonNode stored(String name) throws IOException {
        try (InputStream in = RepetitionResultJsonTest.class.getResourceAsStream("/records/" + name)) {
            assertThat(in).as(name).isNotNull();
            return JSON.readTree(in);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"measurement-8e1ab4c-tcps-profiled.json", "measurement-8e1ab4c-udp-open.json"})
    void aRecordStoredBeforeTheGroupsReadsBackAndWritesTheSameJson(String name) throws IOException {
        JsonNode before = stored(name);

        MeasurementResult read = JSON.treeToValue(before, MeasurementResult.class);
        JsonNode after = JSON.valueToTree(read);
        // spec fields added since take their defaults, which the record then holds
        ObjectNode spec = (ObjectNode) after.get("spec");
        assertThat(spec.remove("blockingMicros").asInt()).isZero();
        assertThat(spec.remove("offload").asString()).isEqualTo("loop");
        assertThat(spec.remove("offloadThreads").asInt()).isEqualTo(RunSpec.DEFAULT_OFFLOAD_THREADS);
        assertThat(spec.remove("grpcMethod").asString()).isEqualTo("unary");

        assertThat(differences(before, after, "")).isEmpty();
        assertThat(read.repetitions()).isNotEmpty();
    }

    @Test
    void eachStoredFieldLandsInItsGroup() throws IOException {
        JsonNode open = stored("measurement-8e1ab4c-udp-open.json").get("repetitions").get(0);
        RepetitionResult r = JSON.treeToValue(open, RepetitionResult.class);

        assertThat(r.setup().transport().label()).isEqualTo(open.get("transport").asString());
        assertThat(r.setup().udpBuffers()).isNotNull();
        assertThat(r.throughput().roundTripsPerSecond()).isEqualTo(open.get("roundTripsPerSecond").asDouble());
        assertThat(r.throughput().messages()).isEqualTo(open.get("messages").asLong());
        assertThat(r.rtt().latency().p99Us()).isEqualTo(open.get("latency").get("p99Us").asDouble());
        assertThat(r.rtt().uncorrectedLatency().p99Us())
                .isEqualTo(open.get("uncorrectedLatency").get("p99Us").asDouble());
        assertThat(r.rtt().latencyHistogram()).isEqualTo(open.get("latencyHistogram").asString());
        assertThat(r.resources().cpu().seconds()).isEqualTo(open.get("cpu").get("seconds").asDouble());
        assertThat(r.resources().memory().peakRssBytes()).isEqualTo(open.get("memory").get("peakRssBytes").asLong());
        assertThat(r.jvm().gc().collections()).isEqualTo(open.get("gc").get("collections").asLong());
        assertThat(r.jvm().jit()).isNotNull();
        assertThat(r.checks().errors().total()).isZero();
        assertThat(r.checks().warmup().elapsedSeconds()).isEqualTo(open.get("warmup").get("elapsedSeconds").asDouble());
        assertThat(r.checks().warnings()).hasSize(open.get("warnings").size()).isNotEmpty();
        assertThat(r.openLoad().rate()).isEqualTo(open.get("openLoad").get("rate").asDouble());
        assertThat(r.timeline()).isNotNull();
    }

    @Test
    void aRecordFromBeforeWindowFillWasNamedReadsItsLittlesLaw() throws IOException {
        ObjectNode closed = (ObjectNode) stored("measurement-8e1ab4c-tcps-profiled.json").get("repetitions").get(0);
        JsonNode fill = closed.remove("windowFill");
        closed.set("littlesLaw", fill);

        RepetitionResult r = JSON.treeToValue(closed, RepetitionResult.class);

        assertThat(r.checks().windowFill().ratio()).isEqualTo(fill.get("ratio").asDouble()).isPositive();
        assertThat(r.clean()).isEqualTo(r.ok() && r.checks().warnings().isEmpty());
    }

    @Test
    void aCleanRepetitionPassedWithoutAWarning() throws IOException {
        RepetitionResult warned = JSON.treeToValue(stored("measurement-8e1ab4c-udp-open.json").get("repetitions")
                .get(0), RepetitionResult.class);
        Checks none = new Checks(warned.checks().errors(), warned.checks().warmup(), warned.checks().fairness(),
                null, warned.checks().stampGap(), List.of(), List.of());
        RepetitionResult quiet = new RepetitionResult(1, true, null, null, warned.setup(), warned.throughput(),
                warned.rtt(), warned.resources(), warned.jvm(), none, warned.openLoad(), null, null);

        assertThat(warned.ok()).isTrue();
        assertThat(warned.clean()).isFalse();
        assertThat(quiet.clean()).isTrue();
        assertThat(RepetitionResult.failed(1, warned.setup().transport(), 1, new Failure.NoEcho("warmup")).clean())
                .isFalse();
    }

    /** Every path where the two trees differ: a field missing on either side, or another value. */
    private static List<String> differences(JsonNode a, JsonNode b, String path) {
        List<String> out = new ArrayList<>();
        if (a.isObject() && b.isObject()) {
            a.propertyNames().forEach(k -> {
                if (!b.has(k)) {
                    out.add(path + "/" + k + " missing after");
                } else {
                    out.addAll(differences(a.get(k), b.get(k), path + "/" + k));
                }
            });
            b.propertyNames().forEach(k -> {
                if (!a.has(k)) {
                    out.add(path + "/" + k + " added after");
                }
            });
        } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                out.addAll(differences(a.get(i), b.get(i), path + "/" + i));
            }
        } else if (a.isNumber() && b.isNumber() ? a.asDouble() != b.asDouble() : !a.equals(b)) {
            out.add(path + ": " + a + " before, " + b + " after");
        }
        return out;
    }
}
