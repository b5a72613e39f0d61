package io.loopbench.engine;

import io.loopbench.engine.spec.Transport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FailureTest {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    @Test
    void everyKindKeepsItsDataThroughJsonAndItsWordsInTheErrorField() {
        List<Failure> all = List.of(new Failure.SetUp("bind failed"),
                new Failure.ErrorCounters("measured phase", "lostMessages=3", "connection reset"),
                new Failure.NoEcho("warmup"), new Failure.Unfair(null, 3, 12, 1000, 0.94),
                new Failure.Unfair("agent-b", -1, 12, 1000, 0.94), new Failure.Stalled(400_000, 1.2),
                new Failure.Worker("the worker exited with code 1"),
                new Failure.Agent("agent-a", new Failure.Stalled(400_000, 1.2)), new Failure.Cluster("no answer"),
                new Failure.Cancelled("cancelled"), new Failure.PlacementLost("placement", "agent-a left"),
                new Failure.StepFailed(2, 3, new Failure.NoEcho("measured phase")),
                Failure.Internal.of(new IllegalStateException("boom")), new Failure.Recorded("old words"));

        for (Failure f : all) {
            RepetitionResult r = RepetitionResult.failed(1, Transport.NIO, 1, f);
            String text = JSON.writeValueAsString(r);
            RepetitionResult back = JSON.readValue(text, RepetitionResult.class);

            assertThat(back.failure()).as(text).isEqualTo(f);
            assertThat(back.error()).isEqualTo(f.message());
            assertThat(JSON.readTree(text).get("failure").has("kind")).isTrue();
        }
    }

    @Test
    void theWordsAreTheOnesTheEngineGaveEachKindBeforeFailuresWereData() {
        assertThat(new Failure.Unfair(null, 3, 12, 1000, 0.94).message()).isEqualTo("unfair: client 3 completed 12 "
                + "validated echoes, under a tenth of the mean 1,000.0 (Jain's index 0.940)");
        assertThat(new Failure.Unfair("b", -1, 12_000, 150_000, 0.5).message()).isEqualTo("unfair across agents: a "
                + "client of agent b completed 12,000 validated echoes, under a tenth of the mean 150,000.0 over every "
                + "agent's clients (Jain's index 0.500)");
        assertThat(new Failure.Stalled(400_000, 1.2).message())
                .isEqualTo("stalled: one message took 400,000 µs, over a quarter of the 1.2 s measured phase");
        assertThat(new Failure.ErrorCounters("warmup", "lostMessages=3", "reset").message())
                .isEqualTo("warmup: lostMessages=3 (first: reset)");
        assertThat(new Failure.ErrorCounters("measured phase", "lostMessages=3", null).message())
                .isEqualTo("measured phase: lostMessages=3");
        assertThat(new Failure.StepFailed(2, 3, new Failure.NoEcho("measured phase")).message())
                .isEqualTo("case 2 repetition 3 failed: measured phase: no echo completed (keepGoing is false)");
        assertThat(new Failure.PlacementLost("agent group", "x").message())
                .isEqualTo("the agent group no longer holds: x");
    }

    @Test
    void aStoredRecordWithWordsOnlyReadsItsKindOffTheWords() {
        RepetitionResult passed = RepetitionResult.failed(1, Transport.NIO, 1, new Failure.NoEcho("warmup"));
        ObjectNode node = JSON.valueToTree(passed);
        node.remove("failure");

        for (String words : List.of("unfair: client 3 completed 12 validated echoes", "stalled: one message took 9 µs",
                "unfair across agents: a client of agent b completed 1", "agent b: unfair: client 0 completed 1",
                "agent b: stalled: one message took 9 µs")) {
            node.put("error", words);
            RepetitionResult old = JSON.treeToValue(node, RepetitionResult.class);
            assertThat(old.failure()).isEqualTo(new Failure.Recorded(words));
            assertThat(old.failure().unfair()).as(words).isTrue();
            assertThat(old.error()).isEqualTo(words);
        }
        for (String words : List.of("measured phase: lostMessages=1", "agent b: measured phase: unfair=1",
                "internal error: unfair")) {
            node.put("error", words);
            assertThat(JSON.treeToValue(node, RepetitionResult.class).failure().unfair()).as(words).isFalse();
        }
        node.putNull("error");
        assertThat(JSON.treeToValue(node, RepetitionResult.class).failure()).isNull();
    }

    @Test
    void onlyAStarvedClientOrAStallIsUnfairWhereverItWasJudged() {
        assertThat(new Failure.Agent("a", new Failure.Unfair(null, 0, 1, 100, 0.5)).unfair()).isTrue();
        assertThat(new Failure.Agent("a", new Failure.NoEcho("measured phase")).unfair()).isFalse();
        assertThat(new Failure.StepFailed(1, 1, new Failure.Stalled(1, 1)).unfair())
                .as("a matrix stopped by a stall is not itself a measured case").isFalse();
        assertThat(new Failure.Worker("unfair").unfair()).isFalse();
    }
}
