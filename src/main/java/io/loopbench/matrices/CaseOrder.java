package io.loopbench.matrices;

import io.loopbench.engine.spec.RunSpec;
import io.loopbench.runs.StepRunner;

import java.util.ArrayList;
import java.util.List;

/**
 * Where and when a matrix's cases run: the order of its (case, repetition) steps, and each case's agent group across
 * hosts. Both keep together the cases that differ only by execution, the pairs of the matched comparison. Stateless.
 */
final class CaseOrder {

    private CaseOrder() {
    }

    /**
     * The order in which (case, repetition) steps run: repetitions outermost; within a repetition the cases that
     * differ only by execution run back to back, in the listed order of executions in odd repetitions and in the
     * reverse order in even ones, so that none always runs first and drift (heat, JIT, neighbours) falls on each
     * alike in the matched comparison; and each repetition starts at another such block of cases (rotated by
     * blocks ÷ repetitions), so that no case always runs first or in the same position.
     *
     * @param cases the cases as {@link MatrixSpec#cases()} orders them (executions innermost)
     * @return the steps, each a case and a repetition
     */
    static List<StepRunner.Step> steps(List<RunSpec> cases, int repetitions) {
        List<List<Integer>> blocks = new ArrayList<>();
        RunSpec previous = null;
        for (int i = 0; i < cases.size(); i++) {
            RunSpec besidesExecution = besidesExecution(cases.get(i));
            if (!besidesExecution.equals(previous)) {
                blocks.add(new ArrayList<>());
            }
            blocks.getLast().add(i);
            previous = besidesExecution;
        }
        List<StepRunner.Step> out = new ArrayList<>();
        for (int r = 1; r <= repetitions; r++) {
            int offset = (int) ((long) (r - 1) * blocks.size() / repetitions);
            for (int k = 0; k < blocks.size(); k++) {
                List<Integer> block = blocks.get((k + offset) % blocks.size());
                for (int j = 0; j < block.size(); j++) {
                    int c = block.get(r % 2 == 1 ? j : block.size() - 1 - j);
                    out.add(new StepRunner.Step(c, r, cases.get(c)));
                }
            }
        }
        return out;
    }

    /**
     * The group each case runs on, by case index: the blocks of cases that differ only by execution (adjacent in
     * {@link MatrixSpec#cases()}) are dealt to the groups in turn, so that a matched comparison never crosses groups.
     * Empty unless across hosts.
     */
    static List<Integer> groups(List<RunSpec> cases, int groups) {
        List<Integer> out = new ArrayList<>();
        int block = -1;
        RunSpec previous = null;
        for (RunSpec c : cases) {
            RunSpec besidesExecution = besidesExecution(c);
            if (!besidesExecution.equals(previous)) {
                block++;
            }
            out.add(block % groups);
            previous = besidesExecution;
        }
        return out;
    }

    private static RunSpec besidesExecution(RunSpec c) {
        return c.toBuilder().execution(null).build();
    }
}
