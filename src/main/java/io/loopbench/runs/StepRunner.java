package io.loopbench.runs;

import io.loopbench.engine.Failure;
import io.loopbench.engine.spec.RunSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Runs steps — one repetition of one case each — in their order, each through its {@link RepetitionExecutor}, and
 * hands each finished one to its {@link Sink} to record. A run is a matrix of one case: runs and matrices (and each
 * agent group of a matrix across hosts) run their steps here. Threads: {@link #run} blocks its caller, which the
 * sink is called on.
 */
public final class StepRunner {

    private static final Logger log = LoggerFactory.getLogger(StepRunner.class);

    private StepRunner() {
    }

    /**
     * One step.
     *
     * @param caseIndex  the case's index (0 for a run)
     * @param repetition the repetition's number, from 1
     * @param spec       the case's spec
     */
    public record Step(int caseIndex, int repetition, RunSpec spec) {
    }

    /** What the steps' owner does around each step. */
    public interface Sink {

        /** Whether the step is not needed any more (its case decided): it is passed over, not run. */
        default boolean skip(Step step) {
            return false;
        }

        /** Before step {@code number} (from 1): why the steps stop here, or null to run it. */
        default Failure before(Step step, int number) {
            return null;
        }

        /** What the step tells while it runs. */
        default RepetitionExecutor.StepListener listener(Step step) {
            return RepetitionExecutor.SILENT;
        }

        /** A finished step, to record: why the steps stop after it, or null to go on. */
        Failure finished(Step step, RepetitionOutcome outcome);
    }

    /**
     * Runs {@code steps} until each ran, a step's {@link Sink#before} or {@link Sink#finished} stops them, or
     * {@code stopped} says so (looked at before each step, and after it: a step that ends once its owner stops, or
     * that was cancelled, is not recorded).
     *
     * @param name what runs them, for the log
     * @return why they stopped early (an unexpected exception as {@link Failure.Internal}); null when none failed
     */
    public static Failure run(String name, List<Step> steps, Function<Step, RepetitionExecutor> executors,
                              BooleanSupplier stopped, Sink sink) {
        try {
            for (int s = 0; s < steps.size() && !stopped.getAsBoolean(); s++) {
                Step step = steps.get(s);
                if (sink.skip(step)) {
                    continue;
                }
                Failure refused = sink.before(step, s + 1);
                if (refused != null) {
                    return refused;
                }
                RepetitionOutcome done = executors.apply(step).run(step.spec(), step.repetition(),
                        sink.listener(step));
                if (done == null || stopped.getAsBoolean()) {
                    return null; // cancelled or stopping: an unfinished repetition is not kept
                }
                Failure stop = sink.finished(step, done);
                if (stop != null) {
                    return stop;
                }
            }
            return null;
        } catch (RuntimeException e) {
            log.error("{} failed unexpectedly", name, e);
            return Failure.Internal.of(e);
        }
    }
}
