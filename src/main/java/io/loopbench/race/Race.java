package io.loopbench.race;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonValue;
import io.loopbench.engine.Stat;
import io.loopbench.verdicts.ConfidenceSequence;
import io.loopbench.verdicts.Decision;
import io.loopbench.verdicts.Difference;
import io.loopbench.verdicts.SequentialVerdicts;
import io.loopbench.verdicts.VerdictRule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * Judges a race from its samples, round by round, as it would have been judged while it ran (a look only once every
 * survivor has run the round): a candidate whose repetition fails is eliminated at that round; after every round from
 * the {@link RacePlan}'s first look a candidate established worse than another survivor (by its confidence sequence
 * at the plan's test level) is eliminated, and with a p99 bound so is one whose p99 is established over it. The race is decided when one survivor is left (a winner), or when every pair of
 * survivors is established equivalent within the minimum effect (then the cheapest, by CPU per round trip, is
 * recommended). Being a function of the samples, a stored race is judged again the same way after a restart.
 * Stateless.
 */
public final class Race {

    private Race() {
    }

    /** How the race stands. */
    public enum Outcome {
        /** Still running, undecided so far. */
        RACING,
        /** One survivor, leading every other by an established margin. */
        WINNER,
        /** The survivors are established equivalent: the cheapest is recommended. */
        EQUIVALENT,
        /** The budget ended (or the race was stopped) before a decision: the leader is named, not established. */
        UNDECIDED,
        /** Every candidate failed or was eliminated. */
        NONE;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A candidate's place in the race. */
    public enum Status {
        RECOMMENDED, RACING, ELIMINATED, FAILED;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One candidate's standing, its figures over its clean repetitions (passed, no warning:
     * {@link RaceSample#clean()}).
     *
     * @param label              the candidate in words
     * @param candidate          the candidate
     * @param status             recommended, racing, eliminated or failed
     * @param repetitions        repetitions run
     * @param clean              of them, passed without a warning (stored before this name as {@code usable})
     * @param roundTripsPerSecond throughput: median, min, max
     * @param p99Us              p99: median, min, max
     * @param cpuUsPerRoundTrip  median CPU per round trip, µs (both ends); null where unmeasured
     * @param peakRssMiB         median peak RSS of the measuring JVM, MiB; null where unmeasured
     * @param eliminatedAtRound  the round after which it was eliminated or failed; null otherwise
     * @param eliminatedBy       the candidate it was established worse than; null otherwise
     * @param lostBy             it ÷ that candidate on the raced metric, at the plan's test level; null otherwise
     * @param reason             why it was eliminated or failed, in words; null otherwise
     */
    public record Entry(String label, Candidate candidate, Status status, int repetitions,
                        @JsonAlias("usable") int clean,
                        Stat roundTripsPerSecond, Stat p99Us, Double cpuUsPerRoundTrip, Double peakRssMiB,
                        Integer eliminatedAtRound, String eliminatedBy, Difference lostBy, String reason) {
    }

    /**
     * How the race stands after its last recorded round.
     *
     * @param outcome     racing, winner, equivalent, undecided or none
     * @param rounds      rounds judged
     * @param decidedAtRound the round whose look decided it; null while undecided
     * @param recommended the candidate to use (with {@code undecided}, the leader so far); null with none
     * @param runnerUp    the best other candidate that did not fail; null where there is none
     * @param margin      recommended ÷ runner-up on the raced metric over the rounds both ran, at the plan's test level
     * @param candidates  every candidate, in the order given
     * @param answer      the outcome in one sentence
     */
    public record Verdict(Outcome outcome, int rounds, Integer decidedAtRound, String recommended, String runnerUp,
                          Difference margin, List<Entry> candidates, String answer) {
    }

    /**
     * Judges {@code samples} (per candidate, per round from 1; null where it did not run that round).
     *
     * @param finished whether the race has stopped: undecided then rather than racing
     */
    public static Verdict judge(List<Candidate> candidates, List<List<RaceSample>> samples, RacePlan plan,
                                RaceMetric metric, Double p99BoundUs, double minimumEffect, boolean finished) {
        int k = candidates.size();
        VerdictRule rule = new VerdictRule(Math.min(0.5, plan.testAlpha()), minimumEffect);
        int rounds = samples.stream().mapToInt(List::size).max().orElse(0);
        Integer[] at = new Integer[k];
        Integer[] by = new Integer[k];
        Difference[] lost = new Difference[k];
        String[] reason = new String[k];
        Status[] status = new Status[k];
        Arrays.fill(status, Status.RACING);
        Outcome outcome = Outcome.RACING;
        Integer decidedAt = null;
        for (int r = 1; r <= rounds && decidedAt == null; r++) {
            for (int c = 0; c < k; c++) {
                RaceSample s = sample(samples, c, r);
                if (status[c] == Status.RACING && s != null && s.failure() != null) {
                    status[c] = Status.FAILED;
                    at[c] = r;
                    reason[c] = "failed in round " + r + ": " + s.failure();
                }
            }
            List<Integer> alive = alive(status);
            int round = r;
            if (r < plan.firstLook() || !alive.stream().allMatch(c -> sample(samples, c, round) != null)) {
                continue; // too early, or the round is not complete: its look comes when it is
            }
            Difference[][] diff = new Difference[k][k];
            Status[] next = status.clone();
            for (int i : alive) {
                for (int j : alive) {
                    if (i >= j) {
                        continue; // each pair tested once, j ÷ i; i ÷ j is worded only for the loser
                    }
                    diff[i][j] = compare(samples, i, j, r, metric, rule, noise(plan, candidates, i, j));
                    if (!diff[i][j].established()) {
                        continue;
                    }
                    boolean jLost = metric.worse(diff[i][j].ratio());
                    int loser = jLost ? j : i;
                    int winner = jLost ? i : j;
                    Difference d = jLost ? diff[i][j]
                            : compare(samples, j, i, r, metric, rule, noise(plan, candidates, i, j));
                    if (lost[loser] == null || further(d.ratio(), lost[loser].ratio())) {
                        next[loser] = Status.ELIMINATED;
                        at[loser] = r;
                        by[loser] = winner;
                        lost[loser] = d;
                        reason[loser] = String.format(Locale.ROOT, "established worse than %s after round %d:"
                                + " %s", candidates.get(winner).label(), r, words(d, plan, metric));
                    }
                }
                if (p99BoundUs != null && next[i] == Status.RACING) {
                    Difference over = SequentialVerdicts.overBound(p99s(samples, i, r), p99BoundUs,
                            plan.boundNoise(candidates.get(i).ioThreads()), rule);
                    if (over.established() && over.ratio() > 1) {
                        next[i] = Status.ELIMINATED;
                        at[i] = r;
                        reason[i] = String.format(Locale.ROOT, "p99 established over the bound of %.0f µs "
                                + "after round %d: %.2f× the bound (%s %% interval %.2f–%.2f)", p99BoundUs, r,
                                over.ratio(), Difference.percent(1 - plan.testAlpha()), over.lower(), over.upper());
                    }
                }
            }
            status = next;
            alive = alive(status);
            if (alive.size() == 1) {
                outcome = Outcome.WINNER;
                decidedAt = r;
            } else if (alive.isEmpty()) {
                outcome = Outcome.NONE;
                decidedAt = r;
            } else if (allEquivalent(alive, diff)) {
                outcome = Outcome.EQUIVALENT;
                decidedAt = r;
            }
        }
        List<Integer> alive = alive(status);
        if (decidedAt == null && alive.isEmpty() && rounds > 0) {
            outcome = Outcome.NONE;
        } else if (decidedAt == null && finished) {
            outcome = Outcome.UNDECIDED;
        }
        List<Entry> entries = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            entries.add(entry(candidates.get(c), samples.get(c), status[c], at[c],
                    by[c] == null ? null : candidates.get(by[c]).label(), lost[c], reason[c]));
        }
        Integer recommended = switch (outcome) {
            case WINNER -> alive.getFirst();
            case EQUIVALENT -> alive.stream().min(Comparator.comparing((Integer c) -> cheapness(entries.get(c)))
                    .thenComparing(c -> candidates.get(c).ioThreads())).orElseThrow();
            case UNDECIDED, RACING -> alive.isEmpty() ? null
                    : alive.stream().max(Comparator.comparing(c -> score(entries.get(c), metric))).orElseThrow();
            case NONE -> null;
        };
        if (recommended != null && outcome != Outcome.RACING) {
            Entry e = entries.get(recommended);
            entries.set(recommended, new Entry(e.label(), e.candidate(), Status.RECOMMENDED, e.repetitions(),
                    e.clean(), e.roundTripsPerSecond(), e.p99Us(), e.cpuUsPerRoundTrip(), e.peakRssMiB(), null,
                    null, null, null));
        }
        Integer runnerUp = recommended == null ? null : IntStream.range(0, k)
                .filter(c -> c != recommended && entries.get(c).status() != Status.FAILED
                        && entries.get(c).clean() > 0)
                .boxed().max(Comparator.comparing(c -> score(entries.get(c), metric))).orElse(null);
        Difference margin = runnerUp == null ? null
                : compare(samples, runnerUp, recommended, rounds, metric, rule,
                noise(plan, candidates, runnerUp, recommended));
        String best = recommended == null ? null : candidates.get(recommended).label();
        String second = runnerUp == null ? null : candidates.get(runnerUp).label();
        return new Verdict(outcome, rounds, decidedAt, best, second, margin, entries,
                answer(outcome, best, second, margin, decidedAt, rounds, plan, metric, entries));
    }

    private static String answer(Outcome outcome, String best, String second, Difference margin, Integer decidedAt,
                                 int rounds, RacePlan plan, RaceMetric metric, List<Entry> entries) {
        String lead = second == null || margin == null ? "" : " over " + second + ": " + words(margin, plan, metric);
        Entry e = entries.stream().filter(x -> x.label().equals(best)).findFirst().orElse(null);
        String cost = e == null || e.cpuUsPerRoundTrip() == null ? "" : String.format(Locale.ROOT,
                "; it costs %.2f µs of CPU per round trip%s", e.cpuUsPerRoundTrip(), e.peakRssMiB() == null ? ""
                        : String.format(Locale.ROOT, " and %.0f MiB of RSS", e.peakRssMiB()));
        return switch (outcome) {
            case WINNER -> "Use " + best + ": established better than every other candidate after round " + decidedAt
                    + lead + cost + ".";
            case EQUIVALENT -> "Use " + best + ", the cheapest of the candidates left: they are established within the "
                    + "minimum effect of each other after round " + decidedAt + ", so take the one that costs least"
                    + cost + ".";
            case UNDECIDED -> "Undecided after " + rounds + " rounds: " + best + " leads so far" + lead + ", not "
                    + "established; a larger budget, or fewer candidates, can decide" + cost + "." + cheaper(best,
                    entries);
            case RACING -> rounds == 0 ? "Not started." : "Racing: round " + rounds + " done"
                    + (best == null ? "" : ", " + best + " leads so far") + ".";
            case NONE -> "No candidate can be recommended: every one failed or was eliminated (see each reason).";
        };
    }

    /** A difference in words: "0.81× (99.6 % interval 0.77–0.85) on round trips/s over 9 rounds". */
    public static String words(Difference d, RacePlan plan, RaceMetric metric) {
        String interval = d.lower() == null || d.upper() == null ? ""
                : String.format(Locale.ROOT, " (%s %% interval %.2f–%.2f)", Difference.percent(1 - plan.testAlpha()),
                        d.lower(), d.upper());
        return String.format(Locale.ROOT, "%.2f×%s on %s over %d rounds", d.ratio(), interval,
                metric.words(), d.baselineSize());
    }

    private static boolean further(double ratio, double than) {
        return Math.abs(Math.log(ratio)) > Math.abs(Math.log(than));
    }

    private static boolean allEquivalent(List<Integer> alive, Difference[][] diff) {
        for (int i : alive) {
            for (int j : alive) {
                if (i < j && (diff[i][j] == null || diff[i][j].decision() != Decision.EQUIVALENT)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static List<Integer> alive(Status[] status) {
        return IntStream.range(0, status.length).filter(c -> status[c] == Status.RACING).boxed().toList();
    }

    private static RaceSample sample(List<List<RaceSample>> samples, int c, int round) {
        List<RaceSample> own = samples.get(c);
        return round <= own.size() ? own.get(round - 1) : null;
    }

    /**
     * Where the budget ended undecided: the cheapest (CPU per round trip) of the candidates still racing when it is
     * not the leader, since the leaders could not be told apart.
     */
    private static String cheaper(String best, List<Entry> entries) {
        Entry cheapest = entries.stream().filter(e -> (e.status() == Status.RACING || e.status() == Status.RECOMMENDED)
                        && e.cpuUsPerRoundTrip() != null)
                .min(Comparator.comparing(Race::cheapness)).orElse(null);
        return cheapest == null || cheapest.label().equals(best) ? "" : String.format(Locale.ROOT, " Of the "
                + "candidates left, %s costs least: %.2f µs of CPU per round trip.", cheapest.label(),
                cheapest.cpuUsPerRoundTrip());
    }

    /** The noise two candidates' comparison assumes: the noisier one's floor. */
    private static ConfidenceSequence.Noise noise(RacePlan plan, List<Candidate> candidates, int i, int j) {
        return plan.metricNoise(candidates.get(i).ioThreads(), candidates.get(j).ioThreads());
    }

    /** {@code j} ÷ {@code i} over the rounds up to {@code r} where both are clean. */
    private static Difference compare(List<List<RaceSample>> samples, int i, int j, int r, RaceMetric metric,
                                      VerdictRule rule, ConfidenceSequence.Noise noise) {
        List<double[]> pairs = new ArrayList<>();
        for (int round = 1; round <= r; round++) {
            RaceSample a = sample(samples, i, round);
            RaceSample b = sample(samples, j, round);
            if (a != null && b != null && a.clean() && b.clean()) {
                pairs.add(new double[] {a.value(metric), b.value(metric)});
            }
        }
        return SequentialVerdicts.paired(pairs.stream().mapToDouble(p -> p[0]).toArray(),
                pairs.stream().mapToDouble(p -> p[1]).toArray(), noise, rule);
    }

    private static double[] p99s(List<List<RaceSample>> samples, int c, int r) {
        return IntStream.rangeClosed(1, r).mapToObj(round -> sample(samples, c, round))
                
                .filter(s -> s != null && s.clean()).mapToDouble(RaceSample::p99Us).toArray();
    }

    private static Entry entry(Candidate c, List<RaceSample> own, Status status, Integer at, String by,
                               Difference lost, String reason) {
        List<RaceSample> clean = own.stream().filter(s -> s != null && s.clean()).toList();
        return new Entry(c.label(), c, status, (int) own.stream().filter(Objects::nonNull).count(), clean.size(),
                stat(clean.stream().map(RaceSample::roundTripsPerSecond).toList()),
                stat(clean.stream().map(RaceSample::p99Us).toList()),
                median(clean.stream().map(RaceSample::cpuUsPerRoundTrip).filter(Objects::nonNull).toList()),
                median(clean.stream().map(RaceSample::peakRssBytes).filter(Objects::nonNull)
                        .map(b -> b / (1024.0 * 1024)).toList()),
                at, by, lost, reason);
    }

    private static Stat stat(List<Double> values) {
        return values.isEmpty() ? null : Stat.of(values);
    }

    private static Double median(List<Double> values) {
        return values.isEmpty() ? null : Stat.of(values).median();
    }

    /** Higher is better. */
    private static double score(Entry e, RaceMetric metric) {
        if (e.roundTripsPerSecond() == null) {
            return Double.NEGATIVE_INFINITY;
        }
        return metric == RaceMetric.THROUGHPUT ? e.roundTripsPerSecond().median() : -e.p99Us().median();
    }

    private static double cheapness(Entry e) {
        return e.cpuUsPerRoundTrip() == null ? Double.POSITIVE_INFINITY : e.cpuUsPerRoundTrip();
    }
}
