package io.loopbench.race;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What a race ranks candidates by: under a closed load every candidate sets its own throughput, the more the better;
 * under an open load every candidate is offered the same rate, so the lower p99 wins.
 */
public enum RaceMetric {
    THROUGHPUT("round trips/s"),
    P99("p99");

    private final String words;

    RaceMetric(String words) {
        this.words = words;
    }

    @JsonValue
    public String words() {
        return words;
    }

    /** Whether {@code ratio} (candidate ÷ other) says the candidate is worse. */
    boolean worse(double ratio) {
        return this == THROUGHPUT ? ratio < 1 : ratio > 1;
    }
}
