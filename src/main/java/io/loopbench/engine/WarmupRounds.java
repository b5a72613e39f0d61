package io.loopbench.engine;

import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.process.JvmEvents;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.timeline.TimelineRecording;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A repetition's warm-up, in rounds, and the criteria that end an auto warm-up. Threads: {@link #run} runs on the
 * repetition's thread, as the rest of it does.
 */
final class WarmupRounds {

    private final RunSpec spec;
    /** Whether the flight recorder's JIT events are watched ({@link Measurement#withoutJvmEvents()}). */
    private final boolean jvmEvents;

    WarmupRounds(RunSpec spec, boolean jvmEvents) {
        this.spec = spec;
        this.jvmEvents = jvmEvents;
    }

    /**
     * The warm-up: rounds of {@link #ROUND_SECONDS}, each a whole phase — begin, run, stop, drain, finish — all
     * recording into the warm-up's timeline, so that every path the measured phase takes, its start and its end and
     * the timeline's change of interval included, has run (and been compiled) before it. A fixed warm-up runs rounds
     * for warmupSeconds. An auto warm-up runs at least that long, then stops after the first round that ends a span
     * of {@link #STEADY_ROUNDS} rounds that was steady ({@link #unsteadyThroughput}, then {@link #unquietJit}: the
     * compiler has finished with the measured path), or at warmupMaxSeconds, saying which criterion held it back.
     */
    Outcome run(PhaseRunner phases, TimelineRecording timeline, LongSupplier warmupMessages) throws Exception {
        boolean auto = spec.warmupMode() == WarmupMode.AUTO;
        long started = System.nanoTime();
        long least = started + (long) (spec.warmupSeconds() * 1e9);
        long cap = started + (long) (spec.warmupLimitSeconds() * 1e9);
        int ring = 2 * STEADY_ROUNDS;
        double[] rates = new double[ring];
        PhaseRunner.Outcome[] rounds = new PhaseRunner.Outcome[ring];
        long[] compileMillis = new long[ring];
        PhaseRunner.Outcome first = null;
        PhaseRunner.Outcome last;
        long cpu = 0;
        long gcCollections = 0;
        long gcMillis = 0;
        boolean drainTimedOut = false;
        long done = 0;
        String heldBackBy = "fewer than " + (ring + 1) + " rounds of " + ROUND_SECONDS + " s before the cap";
        boolean byJit = false;
        String stoppedBecause;
        for (int round = 0; ; round++) {
            long left = cap - System.nanoTime();
            last = phases.run(MessageFormat.WARMUP_TAG, Math.min(ROUND_SECONDS, Math.max(left, 1) / 1e9), timeline);
            if (first == null && jvmEvents) {
                // the flight recorder's start (a few hundred ms of a CPU) overlaps the rounds after the first echo
                // rather than delaying it; the JIT's criterion needs it only after a span of rounds
                JvmEvents.startInBackground();
            }
            first = first == null ? last : first;
            cpu += last.cpuNanos();
            gcCollections += last.gcCollections();
            gcMillis += last.gcMillis();
            drainTimedOut |= last.drainTimedOut();
            long total = warmupMessages.getAsLong();
            rates[round % ring] = (total - done) / (last.elapsedNanos() / 1e9);
            rounds[round % ring] = last;
            compileMillis[round % ring] = JvmEvents.compileMillis();
            done = total;
            long now = System.nanoTime();
            if (!auto && now - least >= 0) {
                stoppedBecause = WarmupResult.TIME;
                break;
            }
            if (auto && now - least >= 0 && round >= ring) {
                // the recorder's events are read (and its reader's own code compiled, which counts in the JVM's
                // share) only once throughput holds and the compilers' time, which the JVM tells at once, is quiet
                String why = unsteadyThroughput(rates, round);
                byJit = false;
                if (why == null) {
                    why = unquietJit(null, rounds, compileMillis, round);
                    if (why == null && jvmEvents) {
                        why = unquietJit(JvmEvents.get(), rounds, compileMillis, round);
                    }
                    byJit = why != null;
                }
                if (why == null) {
                    stoppedBecause = WarmupResult.STEADY;
                    heldBackBy = null;
                    break;
                }
                heldBackBy = why;
            }
            if (now - cap >= 0) {
                stoppedBecause = auto ? WarmupResult.CAP : WarmupResult.TIME;
                break;
            }
        }
        return new Outcome(new PhaseRunner.Outcome(first.from(), last.to(), System.nanoTime() - started,
                last.endNanos(), last.stoppedNanos(), cpu, gcCollections, gcMillis, drainTimedOut, stoppedBecause,
                Map.of(), Map.of(), Map.of()),
                WarmupResult.CAP.equals(stoppedBecause) ? heldBackBy : null, byJit);
    }

    /**
     * The warm-up's rounds as one phase; {@code heldBackBy}: why an auto warm-up that reached its cap was not steady,
     * and {@code byJit} whether that was the JIT's criterion (rather than throughput's).
     */
    record Outcome(PhaseRunner.Outcome phase, String heldBackBy, boolean byJit) {
    }

    static final double ROUND_SECONDS = 0.2;
    /**
     * Rounds in each of the two spans {@link #unsteadyThroughput} compares, and in the span {@link #unquietJit}
     * judges: 0.6 s (bench/LOG.md, "A fresh repetition in five seconds").
     */
    static final int STEADY_ROUNDS = 3;
    /** How far the last span's throughput may lie from the span before's, as a share of it. */
    static final double STEADY_SPREAD = 0.10;

    /**
     * Null when throughput has stopped rising or falling: the mean of the last {@link #STEADY_ROUNDS} rounds within
     * {@link #STEADY_SPREAD} of the mean of the rounds before them (a trend, not each round's noise, which on a
     * shared machine can exceed any fixed bound); else how far it moved. {@code rates} is a ring of two spans,
     * {@code round} the newest.
     */
    static String unsteadyThroughput(double[] rates, int round) {
        int n = rates.length;
        double recent = 0;
        double before = 0;
        for (int i = 0; i < STEADY_ROUNDS; i++) {
            recent += rates[(round - i) % n];
            before += rates[(round - STEADY_ROUNDS - i) % n];
        }
        if (recent > 0 && Math.abs(recent - before) <= STEADY_SPREAD * before) {
            return null;
        }
        return before <= 0 || recent <= 0 ? "throughput: no echo in a span of rounds"
                : String.format(Locale.ROOT, "throughput moved %+.1f %% from one span to the next (at most "
                + "±%.0f %%)", (recent / before - 1) * 100, STEADY_SPREAD * 100);
    }

    /**
     * Null when the last {@link #STEADY_ROUNDS} rounds were JIT-quiet by the measured phase's own rule
     * ({@link JitActivity}) with the warm-up's stricter bound on changes
     * ({@link JitActivity#WARMUP_PATH_CHANGES_ALLOWED}), from the recorder's events read at once; else why not. Without the
     * recorder ({@link Measurement#withoutJvmEvents()}), the part of the rule the JVM tells at once: the compilers'
     * share of the rounds' CPU capacity ({@code compileMillis}, the management bean's total after each round).
     */
    static String unquietJit(JvmEvents jit, PhaseRunner.Outcome[] rounds, long[] compileMillis, int round) {
        int n = rounds.length;
        long elapsed = 0;
        for (int i = 0; i < STEADY_ROUNDS; i++) {
            elapsed += rounds[(round - i) % n].elapsedNanos();
        }
        long capacity = JitActivity.capacityNanos(elapsed);
        if (jit == null) {
            long compiled = compileMillis[round % n] - compileMillis[(round - STEADY_ROUNDS) % n];
            return compiled * 1e6 / capacity <= JitActivity.MAX_COMPILE_CPU_SHARE ? null
                    : String.format(Locale.ROOT, "JIT: compilation took %.1f %% of the CPU the last span had (at "
                    + "most %.1f %%)", compiled * 1e8 / capacity, JitActivity.MAX_COMPILE_CPU_SHARE * 100);
        }
        boolean handedOver = jit.awaitEvents();
        Instant from = rounds[(round - STEADY_ROUNDS + 1) % n].from();
        if (!jit.sees(from)) {
            return "JIT: the flight recorder began recording within the last span, so its activity is not known";
        }
        if (!handedOver) {
            return "JIT: " + JvmEvents.UNKNOWN_NOTE;
        }
        return unquietWarmup(jit.activity(from, rounds[round % n].to(), capacity));
    }

    /** Null when the warm-up's last span {@code a} lets it end steady by the JIT; else why not. */
    static String unquietWarmup(JitActivity a) {
        if (!a.quiet()) {
            return "JIT over the last span: " + a.reasons();
        }
        long changes = a.pathOptimizations() + a.pathDeoptimizations();
        return changes <= JitActivity.WARMUP_PATH_CHANGES_ALLOWED ? null : String.format(Locale.ROOT,
                "JIT over the last span: measured-path code changed %d times (at most %d before the measured phase)",
                changes, JitActivity.WARMUP_PATH_CHANGES_ALLOWED);
    }
}
