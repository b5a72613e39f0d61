package io.loopbench.engine;

import com.fasterxml.jackson.annotation.JsonAlias;

import java.util.List;

/**
 * What says whether a repetition's figures can be trusted: its error counters, its warm-up, and the self-checks, with
 * their conclusions in words. Immutable.
 *
 * @param errors     every error counter of the measured phase
 * @param warmup     the warm-up phase; null when warmupSeconds is 0
 * @param fairness   validated echoes per client: min, max and Jain's index
 * @param windowFill closed sliding-window load only: round trips/s × mean RTT against clients × window (stored before
 *                   this name as {@code littlesLaw})
 * @param stampGap   from each message's send stamp to the hand-over of its bytes to the transport (null in records
 *                   stored before it)
 * @param warnings   what makes a passed repetition's figures doubtful, in words (e.g. a measured phase that was not
 *                   JIT-quiet, clients served unevenly); a figure with a warning is never part of an established
 *                   verdict; empty when none
 * @param notes      what a user should know but does not make a figure doubtful (e.g. an auto warm-up capped while
 *                   the JIT was busy, which the measured phase's own JIT check then judged; JIT activity unknown);
 *                   empty when none
 */
public record Checks(
        ErrorCounts errors,
        WarmupResult warmup,
        Fairness fairness,
        @JsonAlias("littlesLaw") WindowFill windowFill,
        StampGap stampGap,
        List<String> warnings,
        List<String> notes) {

    public static final Checks NONE = new Checks(null, null, null, null, null, List.of(), List.of());

    public Checks {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }
}
