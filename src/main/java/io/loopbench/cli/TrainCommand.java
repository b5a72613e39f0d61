package io.loopbench.cli;

import io.loopbench.worker.WorkerTraining;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/**
 * {@code train}: {@link WorkerTraining}'s workload, for the AOT cache or CDS archive {@code ./loopbench} records (the
 * engine's own hot path through the worker's entry). Exit code 0 when every case ran, 1 when one did not.
 */
@Command(name = "train", hidden = true, mixinStandardHelpOptions = true,
        description = "Run the engine's own short workload, for the JVM's AOT cache training (JDK 25+).")
public final class TrainCommand implements Callable<Integer> {

    @Option(names = "--seconds", description = "Seconds per case, a quarter of them warm-up (default 2).")
    double seconds = WorkerTraining.DEFAULT_SECONDS;

    @Override
    public Integer call() {
        return WorkerTraining.run(seconds, System.err);
    }
}
