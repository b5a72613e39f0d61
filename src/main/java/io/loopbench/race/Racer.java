package io.loopbench.race;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.verdicts.ConfidenceSequence;
import io.loopbench.worker.RepetitionTime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * Runs a race: round after round, one repetition of every surviving candidate each (each in the caller's executor:
 * a fresh JVM for the service and the command line), in an order rotated and reversed from round to round so that
 * no candidate always runs first or after the same one; a repetition whose figures carry a warning is run again once,
 * within its round, where the budget allows; after each round the race is judged ({@link Race#judge}),
 * and it stops once decided, when stopped, or when the next round would not fit in the budget (at the planned time a
 * repetition, or the mean one so far where longer). Threads: {@link #run}
 * blocks its caller, on which the executor and listener are called.
 */
public final class Racer {

    private Racer() {
    }

    /** Runs one repetition of a candidate. */
    public interface Repetitions {
        /** The repetition's result; null when the race was stopped meanwhile (the repetition is not kept). */
        RepetitionResult run(int candidate, RunSpec spec, int round);
    }

    /** What the race tells as it runs; called on the racing thread. */
    public interface Listener {
        /** Before a repetition: the step's number (from 1) and its candidate. */
        default void starting(int step, int round, int candidate) {
        }

        /** A finished repetition, to record, and how the race stands after it (judged after each round). */
        void recorded(int round, int candidate, RepetitionResult result, Race.Verdict verdict);

        /** A repetition whose figures carry a warning, not kept: the candidate runs again within its round. */
        default void runningAgain(int round, int candidate, RepetitionResult warned) {
        }
    }

    /**
     * A race ready to run: its candidates and plan.
     *
     * @param spec       the effective spec
     * @param candidates the candidates, in their fixed order
     * @param plan       the plan
     */
    public record Prepared(RecommendationSpec spec, List<Candidate> candidates, RacePlan plan) {

        /**
         * A race stored before its plan had noise floors (its rank tests' looks instead) is judged by today's method,
         * with its load's floors, over the rounds it planned.
         */
        public Prepared {
            if (plan.noise() <= 0) {
                plan = RacePlan.forRounds(plan.candidates(), spec.p99BoundUs() != null, plan.alpha(),
                        plan.maxRounds(), plan.repetitionSeconds(), spec.load().protocol(), spec.metric());
            }
        }

        /** Judges samples of this race. */
        public Race.Verdict judge(List<List<RaceSample>> samples, boolean finished) {
            return Race.judge(candidates, samples, plan, spec.metric(), spec.p99BoundUs(), spec.minimumEffect(),
                    finished);
        }
    }

    /** Seconds one repetition of {@code load} is planned to take in a fresh JVM ({@link RepetitionTime}). */
    public static double repetitionSeconds(RunSpec load) {
        return RepetitionTime.seconds(load, true);
    }

    /**
     * Prepares a race, or says why it cannot run: every rule the spec breaks, fewer than two candidates, or a budget
     * too small for the first round at which a test can decide.
     *
     * @param requested  the spec as asked
     * @param cores      this machine's cores
     * @param loads      whether a Netty transport loads here
     * @param violations filled with the reasons when null is returned
     */
    public static Prepared prepare(RecommendationSpec requested, int cores,
                                   Predicate<Transport> loads,
                                   List<Violation> violations) {
        RecommendationSpec spec = requested.effective();
        violations.addAll(spec.violations());
        if (!violations.isEmpty()) {
            return null;
        }
        List<Candidate> candidates = spec.candidates(cores, loads);
        Violation few = spec.tooFewCandidates(candidates);
        if (few != null) {
            violations.add(few);
            return null;
        }
        double each = repetitionSeconds(spec.load());
        boolean bound = spec.p99BoundUs() != null;
        RacePlan plan = RacePlan.of(candidates.size(), bound, spec.alpha(), spec.budgetSeconds(), each,
                spec.load().protocol(), spec.metric());
        if (plan == null) {
            double least = RacePlan.minimumBudget(candidates.size(), each);
            violations.add(new Violation("budgetSeconds", String.format(Locale.ROOT, "%.0f", spec.budgetSeconds()),
                    String.format(Locale.ROOT, "at least %.0f for these %d candidates: a decision needs %d rounds, "
                                    + "a round being a repetition of each (~%.1f s each: the warm-up, seconds and "
                                    + "%.1f s for the JVM); or fewer candidates (ioModels, ioThreads, transports, "
                                    + "executions)", least, candidates.size(), ConfidenceSequence.LEAST_ROUNDS, each,
                            RepetitionTime.FORKED_OVERHEAD_SECONDS)));
            return null;
        }
        return new Prepared(spec, candidates, plan);
    }

    /**
     * Runs {@code race} until decided, stopped, or out of budget.
     *
     * @param elapsedSeconds seconds since the race started (the budget's clock)
     * @return the final verdict (undecided when the budget or a stop ended it first)
     */
    public static Race.Verdict run(Prepared race, Repetitions repetitions, Listener listener, BooleanSupplier stopped,
                                   DoubleSupplier elapsedSeconds) {
        int k = race.candidates().size();
        List<List<RaceSample>> samples = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            samples.add(new ArrayList<>());
        }
        List<Integer> racing = new ArrayList<>(IntStream.range(0, k).boxed().toList());
        int step = 0;
        for (int round = 1; round <= race.plan().maxRounds() && !stopped.getAsBoolean(); round++) {
            // each repetition as long as planned, or as the ones so far took where that was longer
            double elapsed = elapsedSeconds.getAsDouble();
            double each = Math.max(race.plan().repetitionSeconds(), step == 0 ? 0 : elapsed / step);
            if (elapsed + racing.size() * each > race.spec().budgetSeconds()) {
                break;
            }
            for (List<RaceSample> own : samples) {
                own.add(null);
            }
            Race.Verdict now = null; // judged after each repetition: after the round's last, the round's verdict
            List<Integer> order = order(racing, round);
            for (int position = 0; position < order.size(); position++) {
                int c = order.get(position);
                if (stopped.getAsBoolean()) {
                    break;
                }
                listener.starting(++step, round, c);
                RunSpec spec = race.candidates().get(c).apply(race.spec().load());
                RepetitionResult r = repetitions.run(c, spec, round);
                if (r != null && RaceSample.of(r).warned() && !stopped.getAsBoolean()
                        && elapsedSeconds.getAsDouble() + (order.size() - position) * each
                        <= race.spec().budgetSeconds()) {
                    // a warned repetition decides nothing and would lose its round's pairs: run it again, once
                    listener.runningAgain(round, c, r);
                    listener.starting(++step, round, c);
                    r = repetitions.run(c, spec, round);
                }
                if (r == null) {
                    break;
                }
                samples.get(c).set(round - 1, RaceSample.of(r));
                now = race.judge(samples, false);
                listener.recorded(round, c, r, now);
            }
            Race.Verdict after = now != null ? now : race.judge(samples, false);
            if (after.decidedAtRound() != null) {
                return after;
            }
            racing = new ArrayList<>();
            for (int c = 0; c < k; c++) {
                if (after.candidates().get(c).status() == Race.Status.RACING) {
                    racing.add(c);
                }
            }
        }
        return race.judge(samples, true);
    }

    /** The survivors rotated by the round and reversed every other round. */
    static List<Integer> order(List<Integer> racing, int round) {
        List<Integer> out = new ArrayList<>(racing);
        Collections.rotate(out, -((round - 1) % Math.max(1, out.size())));
        if (round % 2 == 0) {
            Collections.reverse(out);
        }
        return out;
    }
}
