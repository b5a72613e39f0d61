package io.loopbench.engine;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.timeline.Timeline;

/**
 * One repetition: its own loops, servers and clients, a warm-up and a measured phase. When set-up failed, the
 * figures are {@code null}; when validation failed, {@code ok} is false and {@code error} says why, and the
 * figures describe a run that must not be trusted. Its figures come in groups by concern; in JSON each group's
 * fields sit beside {@code repetition} and {@code ok} ({@link JsonUnwrapped}), as they did before the groups, so that
 * stored records and the API's clients read them as ever. Immutable.
 *
 * @param repetition 1-based index
 * @param ok         true when every echo was validated and every error counter is zero
 * @param error      why the repetition failed, in words ({@code failure}'s), or null
 * @param failure    why the repetition failed, as data; null when it passed (read from {@code error}'s words in
 *                   records stored before failures were data)
 * @param setup      how the echo pair was set up: transport, channels, addresses, threads, socket options, TLS
 * @param throughput messages and round trips/s of the measured phase
 * @param rtt        round-trip times of the measured phase
 * @param resources  process CPU and memory
 * @param jvm        JIT and GC activity during the measured phase
 * @param checks     error counters, the warm-up and the self-checks, with their warnings and notes
 * @param openLoad   open load only: messages due, late and dropped, and the pacer's send lag
 * @param timeline   the repetition over time: warm-up and measured phase in intervals, with the process's GC and JIT
 *                   events (absent in records stored before timelines existed)
 * @param cpuProfile where the measured phase's CPU time went, with {@code profiling} {@code cpu}; null when not
 *                   profiled (records stored before profiles too), or when no profile could be taken, which a note
 *                   then says why
 */
public record RepetitionResult(
        int repetition,
        boolean ok,
        String error,
        Failure failure,
        @JsonUnwrapped EchoPairSetup setup,
        @JsonUnwrapped Throughput throughput,
        @JsonUnwrapped RoundTripTimes rtt,
        @JsonUnwrapped ResourceUse resources,
        @JsonUnwrapped JvmActivity jvm,
        @JsonUnwrapped Checks checks,
        OpenLoad openLoad,
        Timeline timeline,
        CpuProfile cpuProfile) {

    public RepetitionResult {
        failure = failure == null && error != null ? new Failure.Recorded(error) : failure;
        error = failure == null ? null : failure.message();
        throughput = throughput == null ? Throughput.NONE : throughput;
        rtt = rtt == null ? RoundTripTimes.NONE : rtt;
        resources = resources == null ? ResourceUse.NONE : resources;
        jvm = jvm == null ? JvmActivity.NONE : jvm;
        checks = checks == null ? Checks.NONE : checks;
    }

    /**
     * Whether the repetition can stand in a verdict: it passed (every echo validated) and no self-check warned. The
     * one name for this everywhere: reports, the gate, races and the page say "clean".
     */
    public boolean clean() {
        return ok && checks.warnings().isEmpty();
    }

    /** The same result under another index: a forked worker numbers its single repetition 1. */
    public RepetitionResult withRepetition(int index) {
        return new RepetitionResult(index, ok, error, failure, setup, throughput, rtt, resources, jvm, checks,
                openLoad, timeline, cpuProfile);
    }

    /** The same result without its timeline, for output that leaves it out. */
    public RepetitionResult withoutTimeline() {
        return new RepetitionResult(repetition, ok, error, failure, setup, throughput, rtt, resources, jvm, checks,
                openLoad, null, cpuProfile);
    }

    /** A repetition that produced no figures, e.g. a forked worker that died or was killed. */
    public static RepetitionResult failed(int repetition, Transport transport, int eventLoops, Failure failure) {
        return new RepetitionResult(repetition, false, null, failure, EchoPairSetup.unopened(transport, eventLoops),
                null, null, null, null, null, null, null, null);
    }
}
