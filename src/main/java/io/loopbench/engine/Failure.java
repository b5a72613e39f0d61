package io.loopbench.engine;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Why a repetition, a run or a matrix failed, as data: each kind keeps its facts, and {@link #message()} words them
 * where a person reads them (the {@code error} fields, reports, the CLI). In JSON an object named by its {@code kind}.
 * Immutable.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({@JsonSubTypes.Type(value = Failure.SetUp.class, name = "setUp"),
        @JsonSubTypes.Type(value = Failure.ErrorCounters.class, name = "errorCounters"),
        @JsonSubTypes.Type(value = Failure.NoEcho.class, name = "noEcho"),
        @JsonSubTypes.Type(value = Failure.Unfair.class, name = "unfair"),
        @JsonSubTypes.Type(value = Failure.Stalled.class, name = "stalled"),
        @JsonSubTypes.Type(value = Failure.Worker.class, name = "worker"),
        @JsonSubTypes.Type(value = Failure.Agent.class, name = "agent"),
        @JsonSubTypes.Type(value = Failure.Cluster.class, name = "cluster"),
        @JsonSubTypes.Type(value = Failure.Cancelled.class, name = "cancelled"),
        @JsonSubTypes.Type(value = Failure.PlacementLost.class, name = "placementLost"),
        @JsonSubTypes.Type(value = Failure.StepFailed.class, name = "stepFailed"),
        @JsonSubTypes.Type(value = Failure.Internal.class, name = "internal"),
        @JsonSubTypes.Type(value = Failure.Recorded.class, name = "recorded")})
public sealed interface Failure {

    /** The failure in words, as the {@code error} fields carry it. */
    String message();

    /**
     * True when every echo was validated but the spec was not served fairly (a client starved, a message stalled):
     * the figures exist, yet cannot stand for the spec, and a comparison says so rather than "failed".
     */
    default boolean unfair() {
        return false;
    }

    /** The repetition could not be set up (bind, connect, TLS handshake …); {@code cause} with its causes. */
    record SetUp(String cause) implements Failure {
        @Override
        public String message() {
            return "set-up failed: " + cause;
        }
    }

    /**
     * A phase's error counters were not all zero.
     *
     * @param phase      {@code warmup} or {@code measured phase}
     * @param counters   the non-zero counters, "name=value, …"
     * @param firstError the first error a client or server met, or null
     */
    record ErrorCounters(String phase, String counters, String firstError) implements Failure {
        @Override
        public String message() {
            return phase + ": " + counters + (firstError == null ? "" : " (first: " + firstError + ")");
        }
    }

    /** A phase completed no echo at all. */
    record NoEcho(String phase) implements Failure {
        @Override
        public String message() {
            return phase + ": no echo completed";
        }
    }

    /**
     * A client completed under a tenth of the mean: every echo validated, but the spec was not served fairly.
     *
     * @param agent      across hosts, the agent whose client completed fewest (judged over every agent's clients);
     *                   null on one host
     * @param client     on one host, the starved client's index; -1 across hosts
     * @param echoes     the validated echoes it completed
     * @param mean       the mean over every client
     * @param jainIndex  Jain's fairness index over every client
     */
    record Unfair(String agent, int client, long echoes, double mean, double jainIndex) implements Failure {
        @Override
        public String message() {
            return agent == null
                    ? String.format(Locale.ROOT, "unfair: client %d completed %,d validated echoes, under a tenth "
                    + "of the mean %,.1f (Jain's index %.3f)", client, echoes, mean, jainIndex)
                    : String.format(Locale.ROOT, "unfair across agents: a client of agent %s completed %,d "
                    + "validated echoes, under a tenth of the mean %,.1f over every agent's clients (Jain's index "
                    + "%.3f)", agent, echoes, mean, jainIndex);
        }

        @Override
        public boolean unfair() {
            return true;
        }
    }

    /** One message waited over a quarter of the measured phase. */
    record Stalled(double maxUs, double phaseSeconds) implements Failure {
        @Override
        public String message() {
            return String.format(Locale.ROOT, "stalled: one message took %,.0f µs, over a quarter of the %s s "
                    + "measured phase", maxUs, phaseSeconds);
        }

        @Override
        public boolean unfair() {
            return true;
        }
    }

    /** A forked worker JVM did not report its repetition: it could not start, died, was killed or said nothing. */
    record Worker(String reason) implements Failure {
        @Override
        public String message() {
            return reason;
        }
    }

    /** An agent's own part of a repetition across hosts failed there. */
    record Agent(String agent, Failure cause) implements Failure {
        @Override
        public String message() {
            return "agent " + agent + ": " + cause.message();
        }

        @Override
        public boolean unfair() {
            return cause.unfair();
        }
    }

    /** A repetition across hosts could not be coordinated: an agent left, refused or did not answer. */
    record Cluster(String reason) implements Failure {
        @Override
        public String message() {
            return reason;
        }
    }

    /** Cancelled (or interrupted) before the repetition finished. */
    record Cancelled(String reason) implements Failure {
        @Override
        public String message() {
            return reason;
        }
    }

    /**
     * The agents a run or a matrix's agent group was placed on no longer hold (left, busy, outside the allow-list).
     *
     * @param placement  {@code placement} or {@code agent group}
     * @param violations what no longer holds, "…; …"
     */
    record PlacementLost(String placement, String violations) implements Failure {
        @Override
        public String message() {
            return "the " + placement + " no longer holds: " + violations;
        }
    }

    /** A matrix step failed, and the matrix does not keep going past a failed step. */
    record StepFailed(int caseNumber, int repetition, Failure cause) implements Failure {
        @Override
        public String message() {
            return "case " + caseNumber + " repetition " + repetition + " failed: " + cause.message()
                    + " (keepGoing is false)";
        }
    }

    /** A defect: an exception nothing expected. */
    record Internal(String exception) implements Failure {
        public static Internal of(Throwable e) {
            return new Internal(e.toString());
        }

        @Override
        public String message() {
            return "internal error: " + exception;
        }
    }

    /**
     * A failure stored as words only, before failures were data: its kind is read off the words the engine gave
     * each kind then ("unfair…", "stalled: …").
     */
    record Recorded(String message) implements Failure {
        private static final Pattern UNFAIR_WORDS = Pattern.compile("(agent \\S+: )?(unfair|stalled: )");

        @Override
        public boolean unfair() {
            return UNFAIR_WORDS.matcher(message).lookingAt();
        }
    }
}
