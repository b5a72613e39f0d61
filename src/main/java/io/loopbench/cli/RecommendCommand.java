package io.loopbench.cli;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import io.loopbench.race.Candidate;
import io.loopbench.race.Race;
import io.loopbench.race.RacePlan;
import io.loopbench.race.Racer;
import io.loopbench.race.RecommendationSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code recommend}: races the ways to run a load here (IO models × threads × transports × executions × offloads), each
 * repetition in a fresh JVM, until one is established best, the ones left are a tie, or the budget ends (see
 * {@link Racer}); prints the answer as JSON on stdout, a line per repetition and per elimination on stderr. Exit codes:
 * 0 decided (a winner, or a tie and the cheapest named), 1 no candidate left, 2 invalid input or a budget that cannot
 * decide, 3 undecided at the end of the budget.
 */
@Command(name = "recommend", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Race the IO models, thread counts, transports, executions and offloads that can run a load "
                + "here, and print which to use as JSON.",
        resourceBundle = "io.loopbench.cli.SpecFieldHelp")
public final class RecommendCommand implements Callable<Integer> {

    /** The flags of the spec's own fields, for refusals. */
    private static final Map<String, String> FLAGS = Map.ofEntries(Map.entry("budgetSeconds", "--budget"),
            Map.entry("p99BoundUs", "--p99-bound-us"), Map.entry("minimumEffect", "--minimum-effect"),
            Map.entry("alpha", "--alpha"), Map.entry("ioModels", "--io-models"), Map.entry("ioThreads", "--io-threads"),
            Map.entry("transports", "--transports"), Map.entry("executions", "--executions"),
            Map.entry("offloads", "--offloads"), Map.entry("offloadThreads", "--offload-threads"),
            Map.entry("candidates", "--io-models / --io-threads / --transports / --executions / --offloads"));

    @CommandLine.Mixin
    LoadOptions load;
    @Option(names = "--budget", paramLabel = "SECONDS", required = true,
            description = "Wall time the race may take, 1 … 86400 s: its rounds are planned by it, and no round "
                    + "starts that would not fit.")
    Double budget;
    @Option(names = "--p99-bound-us", paramLabel = "MICROSECONDS",
            description = "Eliminate a candidate whose p99 is established over this bound.")
    Double p99BoundUs;
    @Option(names = "--minimum-effect", paramLabel = "FRACTION",
            description = "The smallest difference that counts, 0 … 1. Default: 0.05.")
    Double minimumEffect;
    @Option(names = "--alpha", paramLabel = "ALPHA", description = "The chance, over the whole race, of any wrong "
            + "elimination or tie, (0, 0.5]. Default: 0.05.")
    Double alpha;
    @Option(names = "--io-models", split = ",", paramLabel = "shared|sharded",
            description = "IO models to race. Default: shared,sharded.")
    List<IoModel> ioModels;
    @Option(names = "--io-threads", split = ",", paramLabel = "N", description = "Thread counts to race, each "
            + "1 … " + RunSpec.MAX_IO_THREADS + ". Default: 1, 2, 4, … up to this machine's cores, and the cores.")
    List<Integer> ioThreads;
    @Option(names = "--transports", split = ",", paramLabel = "nio|epoll|io_uring",
            description = "Netty transports to race. Default: every one that loads here.")
    List<Transport> transports;
    @Option(names = "--executions", split = ",", paramLabel = "netty|reactive|virtual-threads",
            description = "Executions to race. Default: netty.")
    List<Execution> executions;
    @Option(names = "--offloads", split = ",", paramLabel = "loop|executor|virtual-threads",
            description = "Where the server's work may run, to race. Default: loop; with --work or --blocking-us, all "
                    + "three.")
    List<Offload> offloads;
    @Option(names = "--offload-threads", split = ",", paramLabel = "N", description = "Executor pool sizes to race, "
            + "each 1 … 1,024. Default: 4, 16, 64, … up to the messages in flight (clients × window), at most 64, and "
            + "that bound.")
    List<Integer> offloadThreads;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec commandSpec;

    /**
     * The answer as printed.
     *
     * @param spec           the effective spec
     * @param candidates     the candidates raced
     * @param plan           the rounds, looks and the level of every test
     * @param verdict        the answer, every candidate's figures and fate
     * @param elapsedSeconds wall time the race took
     * @param budgetSavedSeconds the budget less the wall time, when the race was decided; null otherwise
     * @param environment    the JVM that measured (the last worker's)
     * @param repetitions    per candidate, per round from 1: the repetition (without its timeline), null where it
     *                       did not run
     */
    record Answer(RecommendationSpec spec, List<Candidate> candidates, RacePlan plan, Race.Verdict verdict,
                  double elapsedSeconds, Double budgetSavedSeconds, Environment environment, List<List<RepetitionResult>> repetitions) {
    }

    RecommendationSpec recommendation() {
        return new RecommendationSpec(load.spec(null), budget, p99BoundUs, minimumEffect, alpha, ioModels, ioThreads,
                transports, executions, offloads, offloadThreads);
    }

    @Override
    public Integer call() {
        PrintWriter err = commandSpec.commandLine().getErr();
        PrintWriter out = commandSpec.commandLine().getOut();
        List<Violation> violations = new ArrayList<>();
        Racer.Prepared race = Racer.prepare(recommendation(), Runtime.getRuntime().availableProcessors(),
                Transports::isAvailable, violations);
        if (race == null) {
            for (Violation v : violations) {
                boolean ofLoad = v.field().startsWith("load.");
                Violation own = ofLoad ? new Violation(v.field().substring(5), v.value(), v.allowed()) : v;
                String flag = ofLoad ? LoadOptions.flags(own.field()) : FLAGS.getOrDefault(v.field(), v.field());
                err.println("loopbench: " + flag + ": " + own.message());
            }
            err.flush();
            return 2;
        }
        err.printf(Locale.ROOT, "loopbench: racing %d candidates, at most %d rounds, looking after every round from "
                        + "round %d%n", race.candidates().size(), race.plan().maxRounds(), race.plan().firstLook());
        List<List<RepetitionResult>> repetitions = new ArrayList<>();
        race.candidates().forEach(c -> repetitions.add(new ArrayList<>()));
        WorkerFork fork = new WorkerFork();
        Set<String> told = new HashSet<>(); // candidates whose elimination was told
        long started = System.nanoTime();
        Race.Verdict verdict = Racer.run(race, (c, spec, round) -> fork.run(spec, round), new Racer.Listener() {
            @Override
            public void recorded(int round, int c, RepetitionResult r, Race.Verdict now) {
                List<RepetitionResult> own = repetitions.get(c);
                while (own.size() < round) {
                    own.add(null);
                }
                own.set(round - 1, r.withoutTimeline());
                err.println(progress(race, round, c, r, now, told));
                err.flush();
            }

            @Override
            public void runningAgain(int round, int c, RepetitionResult warned) {
                err.printf(Locale.ROOT, "loopbench: round %d, %s: warned (%s): running it again within its round%n",
                        round, race.candidates().get(c).label(), String.join("; ", warned.checks().warnings()));
                err.flush();
            }
        }, () -> Thread.currentThread().isInterrupted(), () -> (System.nanoTime() - started) / 1e9);
        double elapsed = (System.nanoTime() - started) / 1e9;
        Double saved = verdict.decidedAtRound() == null ? null : Math.max(0, race.spec().budgetSeconds() - elapsed);
        for (List<RepetitionResult> own : repetitions) {
            while (own.size() < verdict.rounds()) {
                own.add(null);
            }
        }
        err.println("loopbench: " + verdict.answer());
        if (saved != null) {
            err.printf(Locale.ROOT, "loopbench: decided after round %d in %.0f s: stopping early saved %.0f s of the "
                    + "%.0f s budget%n", verdict.decidedAtRound(), elapsed, saved, race.spec().budgetSeconds());
        }
        err.flush();
        out.println(MeasureCommand.Json.MAPPER.writeValueAsString(new Answer(race.spec(), race.candidates(),
                race.plan(), verdict, elapsed, saved, fork.lastEnvironment(), repetitions)));
        out.flush();
        return switch (verdict.outcome()) {
            case WINNER, EQUIVALENT -> 0;
            case NONE -> 1;
            case UNDECIDED, RACING -> 3;
        };
    }

    /** "round 3 of 18, shared 2 · epoll · netty: 912,345 round trips/s, p99 301.2 µs; 3 racing". */
    private static String progress(Racer.Prepared race, int round, int c, RepetitionResult r, Race.Verdict now,
                                   Set<String> told) {
        String figures = r.ok() && r.throughput().roundTripsPerSecond() != null && r.rtt().latency() != null
                ? String.format(Locale.ROOT, "%,.0f round trips/s, p99 %.1f µs%s",
                r.throughput().roundTripsPerSecond(), r.rtt().latency().p99Us(),
                r.clean() ? "" : " (warned: left out)")
                : "failed: " + r.error();
        long racing = now.candidates().stream().filter(e -> e.status() == Race.Status.RACING).count();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "loopbench: round %d of %d, %s: %s; %d racing",
                round, race.plan().maxRounds(), race.candidates().get(c).label(), figures, racing));
        for (Race.Entry e : now.candidates()) {
            if (e.reason() != null && told.add(e.label())) {
                line.append(System.lineSeparator()).append("loopbench: out: ").append(e.label()).append(", ")
                        .append(e.reason());
            }
        }
        return line.toString();
    }
}
