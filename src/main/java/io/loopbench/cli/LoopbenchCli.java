package io.loopbench.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import picocli.CommandLine.Command;

/**
 * The command-line entry point ({@code ./loopbench}). Starts without Spring, so that it is quick and so that the
 * service can fork it as an isolated measurement worker.
 */
@Command(name = "loopbench", mixinStandardHelpOptions = true, versionProvider = LoopbenchCli.Version.class,
        description = "Netty event-loop layout, thread count and transport benchmarks over loopback.",
        subcommands = {MeasureCommand.class, CommandLine.HelpCommand.class})
public final class LoopbenchCli {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs a command line on stdout/stderr and returns its exit code: 0 ok, 1 failed run, 2 invalid input. */
    public static int execute(String... args) {
        return execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    static int execute(PrintWriter out, PrintWriter err, String... args) {
        return new CommandLine(new LoopbenchCli()).setOut(out).setErr(err).execute(args);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = LoopbenchCli.class.getPackage().getImplementationVersion();
            return new String[] {"loopbench " + (v == null ? "(development build)" : v)};
        }
    }
}
