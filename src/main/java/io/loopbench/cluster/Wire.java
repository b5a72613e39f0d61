package io.loopbench.cluster;

import org.jgroups.Message;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.util.Arrays;

/**
 * How members talk above JGroups: each message is one byte naming its kind, then the JSON of its body (a record of
 * this package). JSON rather than Java serialization, so that what arrives is only ever read into the expected record,
 * and fields a newer build adds are ignored by an older one. Stateless; any thread.
 */
final class Wire {

    /** The kinds of request between members. */
    enum Kind {
        /** Coordinator to agent: "send your status"; the answer is an {@link AgentStatus}. Names the coordinator. */
        STATUS_REQUEST,
        /** Agent to coordinator, one way: its {@link AgentStatus} changed. */
        STATUS,
        /** Coordinator to agent: a clock probe; the answer is a {@link ProbeAnswer}. */
        PROBE,
        /** Coordinator to agent: a {@link StartAt}; answered, with a {@link Started}, once the agent has started. */
        START_AT,
        /** Coordinator to agent: "send your part of the phase"; the answer is an {@link AgentPart}. */
        PART_REQUEST,
        /** Coordinator to agent: a {@link io.loopbench.engine.spec.RunSpec} to serve (a standing echo server for its
         *  protocol); the answer is the server's {@link io.loopbench.engine.spec.Target}. */
        SERVE,
        /** Coordinator to agent: a client-only {@link io.loopbench.engine.spec.RunSpec} to start and warm up, held
         *  before its measured phase; answered, with a {@link Prepared}, once held. */
        PREPARE,
        /** Coordinator to agent: the repetition ended (or failed): stop its server and clients; answered with an
         *  {@link Ended}. */
        END,
        /** Agent to coordinator, one way: an {@link Interval} of its clients' timeline, as it closed. */
        INTERVAL
    }

    /**
     * One interval of an agent's clients' timeline.
     *
     * @param measuredIndex its index in the measured phase; -1 in the warm-up (sent all the same, so that the measured
     *                      phase runs no path the warm-up did not)
     * @param interval      its figures
     * @param rtt           its RTTs, in {@code LatencyHistograms.encode}'s form
     */
    record Interval(int measuredIndex, io.loopbench.engine.timeline.TimelineInterval interval, String rtt) {
    }

    /** The agent's clients are warmed up and held before their measured phase. */
    record Prepared(String member) {
    }

    /** What the agent stopped, in words, or null when nothing ran. */
    record Ended(String stopped) {
    }

    /** An agent's two timestamps of a clock probe ({@link ClockProbe}). */
    record ProbeAnswer(long receivedNanos, long repliedNanos) {
    }

    /** Start at this instant of the agent's own monotonic clock (the coordinator converted it with the offset). */
    record StartAt(long agentNanos) {
    }

    /**
     * The instant of its own clock the agent actually started at, and the one it was told at (the start's order
     * arrived): their gap tells a late order from a late wake-up.
     */
    record Started(long agentNanos, long toldNanos) {
    }

    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    private Wire() {
    }

    static byte[] request(Kind kind, Object body) {
        byte[] json = body == null ? new byte[0] : JSON.writeValueAsBytes(body);
        byte[] out = new byte[1 + json.length];
        out[0] = (byte) kind.ordinal();
        System.arraycopy(json, 0, out, 1, json.length);
        return out;
    }

    static Kind kind(Message msg) {
        byte[] a = msg.getArray();
        int k = msg.getLength() == 0 ? -1 : a[msg.getOffset()];
        if (k < 0 || k >= Kind.values().length) {
            throw new IllegalArgumentException("unknown request kind " + k + " from " + msg.getSrc());
        }
        return Kind.values()[k];
    }

    static <T> T body(Message msg, Class<T> type) {
        return JSON.readValue(Arrays.copyOfRange(msg.getArray(), msg.getOffset() + 1,
                msg.getOffset() + msg.getLength()), type);
    }

    static byte[] reply(Object body) {
        return JSON.writeValueAsBytes(body);
    }

    static <T> T reply(byte[] bytes, Class<T> type) {
        return JSON.readValue(bytes, type);
    }
}
