package io.loopbench.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code train}: the workload a JVM runs while {@code -XX:AOTCacheOutput} records the classes it loads and links
 * and the profiles of the methods it runs (JDK 25+), so that a later JVM started with that cache has them from its
 * first millisecond and reaches steady state sooner. It is the engine's own hot path, through {@code measure}
 * itself (argument parsing, warm-up rounds, measured phase, result JSON, which is discarded): TCP and UDP, netty
 * execution, one and two loops, shared and sharded. Only netty is trained: the other executions' types at the
 * engine's shared call sites would make the recorded profiles polymorphic where netty's are not. Exit code 0 when
 * every case produced a result, 1 when one did not run (invalid or crashed: its path was not trained). A result that
 * failed validation counts: short training in a cold JVM may well fail the fairness check, yet it ran the path.
 */
@Command(name = "train", hidden = true, mixinStandardHelpOptions = true,
        description = "Run the engine's own short workload, for the JVM's AOT cache training (JDK 25+).")
public final class TrainCommand implements Callable<Integer> {

    /** The cases: the main seeds profiles (1024 B/16/16 and 64 B/1/1) on both protocols and both IO models. */
    static final List<List<String>> CASES = List.of(
            List.of("--protocol", "tcp", "--payload", "1024", "--clients", "16", "--window", "16",
                    "--io-model", "shared", "--io-threads", "2"),
            List.of("--protocol", "tcp", "--payload", "64", "--clients", "1", "--window", "1",
                    "--io-model", "sharded", "--io-threads", "2"),
            List.of("--protocol", "udp", "--payload", "1024", "--clients", "16", "--window", "1",
                    "--io-model", "shared", "--io-threads", "1"));

    public static final double DEFAULT_SECONDS = 2;

    @Option(names = "--seconds", description = "Seconds per case, a quarter of them warm-up (default 2).")
    double seconds = DEFAULT_SECONDS;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec commandSpec;

    @Override
    public Integer call() {
        PrintWriter err = commandSpec.commandLine().getErr();
        int failed = 0;
        for (List<String> c : CASES) {
            List<String> args = new ArrayList<>(List.of("measure"));
            args.addAll(c);
            args.addAll(List.of("--warmup-mode", "fixed", "--warmup", fmt(seconds / 4), "--seconds",
                    fmt(seconds * 3 / 4), "--repetitions", "1"));
            err.println("loopbench train: " + String.join(" ", args));
            err.flush();
            StringWriter result = new StringWriter();
            LoopbenchCli.execute(new PrintWriter(result), err, args.toArray(String[]::new));
            failed += result.toString().isBlank() ? 1 : 0;
        }
        return failed == 0 ? 0 : 1;
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }
}
