package io.loopbench.cli;

import io.loopbench.engine.spec.Labeled;
import io.loopbench.engine.spec.SpecField;
import io.loopbench.worker.MeasuringJvm;
import picocli.CommandLine;

import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/**
 * The command-line entry point ({@code ./loopbench}). Starts without Spring, so that it is quick and so that the
 * service can fork it as an isolated measurement worker.
 */
@Command(name = "loopbench", mixinStandardHelpOptions = true, versionProvider = LoopbenchCli.Version.class,
        description = "Netty event-loop layout, thread count and transport benchmarks over loopback.",
        subcommands = {MeasureCommand.class, RecommendCommand.class, CompareCommand.class, TrainCommand.class, AgentCommand.class,
                CommandLine.HelpCommand.class})
public final class LoopbenchCli {

    /**
     * Runs the command line; stdout carries only the command's own output (a result's JSON), since anything a library
     * prints to {@code System.out} is sent to stderr.
     */
    public static void main(String[] args) {
        MeasuringJvm.prepare();
        PrintStream stdout = System.out;
        System.setOut(System.err);
        System.exit(execute(new PrintWriter(stdout, true), new PrintWriter(System.err, true), args));
    }

    static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new LoopbenchCli()).setOut(out).setErr(err);
        registerLabels(cli);
        return cli.execute(args);
    }

    /** Enum options take the same lowercase labels as the JSON: every enum a spec field has. */
    static void registerLabels(CommandLine cli) {
        for (SpecField f : SpecField.values()) {
            if (f.type().isEnum()) {
                labels(cli, f.type());
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // a spec field's enum is Labeled (SpecField's contract)
    private static void labels(CommandLine cli, Class<?> type) {
        Class raw = type;
        cli.registerConverter(raw, text -> {
            try {
                return Labeled.parse(raw, text);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        });
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = LoopbenchCli.class.getPackage().getImplementationVersion();
            return new String[] {"loopbench " + (v == null ? "(development build)" : v)};
        }
    }
}
