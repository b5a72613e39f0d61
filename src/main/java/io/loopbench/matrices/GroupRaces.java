package io.loopbench.matrices;

import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.race.Candidate;
import io.loopbench.race.Race;
import io.loopbench.race.RaceMetric;
import io.loopbench.race.RacePlan;
import io.loopbench.race.RaceSample;
import io.loopbench.verdicts.VerdictRule;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A matrix's groups — cases that differ only by IO profile, as its report compares them — judged as races
 * ({@link Race#judge}): repetition r of every case of a group ran in round r, so the group's cases are candidates and
 * its repetitions rounds. A case established worse than another of its group, one that failed, and every case of a
 * group once the group is decided (one case left, or the rest equivalent) need no more repetitions. The race's
 * error rate holds: alpha over each group's comparisons, at every round. Stateless.
 */
final class GroupRaces {

    private GroupRaces() {
    }

    /** The indexes of the cases that need no more repetitions. */
    static Set<Integer> done(MatrixRecord m) {
        Map<RunSpec, List<Integer>> groups = new LinkedHashMap<>();
        List<MatrixRecord.Case> cases = m.cases();
        for (int i = 0; i < cases.size(); i++) {
            // everything but the IO profile and where the server's work runs: the report's groups
            groups.computeIfAbsent(cases.get(i).spec().toBuilder().ioModel(IoModel.SHARED).ioThreads(1)
                            .offload(Offload.LOOP).offloadThreads(RunSpec.DEFAULT_OFFLOAD_THREADS).build(),
                    k -> new ArrayList<>()).add(i);
        }
        Set<Integer> done = new HashSet<>();
        for (List<Integer> group : groups.values()) {
            if (group.size() < 2) {
                continue; // nothing to compare: a lone case runs every repetition
            }
            Race.Verdict v = judge(group.stream().map(cases::get).toList(), m.spec().repetitions());
            for (int j = 0; j < group.size(); j++) {
                Race.Status s = v.candidates().get(j).status();
                if (v.decidedAtRound() != null || s == Race.Status.ELIMINATED || s == Race.Status.FAILED) {
                    done.add(group.get(j));
                }
            }
        }
        return done;
    }

    /** One group's race so far, its cases the candidates and their repetitions the rounds. */
    static Race.Verdict judge(List<MatrixRecord.Case> group, int rounds) {
        List<Candidate> candidates = new ArrayList<>();
        List<List<RaceSample>> samples = new ArrayList<>();
        for (MatrixRecord.Case c : group) {
            RunSpec s = c.spec();
            candidates.add(new Candidate(s.ioModel(), s.ioThreads(), s.transport(), s.execution()));
            samples.add(c.repetitions().stream().map(RaceSample::of).toList());
        }
        RunSpec first = group.getFirst().spec();
        RaceMetric metric = first.load() == LoadModel.OPEN ? RaceMetric.P99 : RaceMetric.THROUGHPUT;
        VerdictRule rule = VerdictRule.DEFAULT;
        RacePlan plan = RacePlan.forRounds(group.size(), false, rule.alpha(), rounds, 0, first.protocol(), metric);
        return Race.judge(candidates, samples, plan, metric, null, rule.minimumEffect(), false);
    }
}
