package io.loopbench.engine;

/**
 * One step of a repetition, with one job (see {@link Repetition#STAGES}): it reads what the stages before it left in
 * the {@link RepetitionState} and adds its own part of the result. A stage knows no other stage; a new kind of work
 * or check is a new stage in that list. Stateless; run once per repetition on its thread.
 */
interface RepetitionStage {

    void run(RepetitionState state) throws Exception;
}
