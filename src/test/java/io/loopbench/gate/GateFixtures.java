package io.loopbench.gate;

import io.loopbench.engine.Checks;
import io.loopbench.engine.EchoPairSetup;
import io.loopbench.engine.Fairness;
import io.loopbench.engine.JvmActivity;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.ResourceUse;
import io.loopbench.engine.RoundTripTimes;
import io.loopbench.engine.Stat;
import io.loopbench.engine.Summary;
import io.loopbench.engine.Throughput;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.reports.CaseResult;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Cases with chosen figures per repetition, for the gate's tests. */
final class GateFixtures {

    static final RunSpec SPEC = RunSpec.builder().build();
    private static final JitActivity QUIET = new JitActivity(0, 0, 0, true, List.of(), 0L, 0L, 0L, 0.0);

    private GateFixtures() {
    }

    /** A passed case: repetition i has rates[i] round trips/s and p99s[i] µs; the first {@code warned} warn. */
    static CaseResult passed(RunSpec spec, double[] rates, double[] p99s, int warned) {
        return passed(spec, rates, p99s, warned, QUIET);
    }

    /** The same, with this JIT record on every repetition (null: recorded before the self-checks existed). */
    static CaseResult passed(RunSpec spec, double[] rates, double[] p99s, int warned, JitActivity jit) {
        List<RepetitionResult> reps = new ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            long n = Math.round(rates[i]);
            reps.add(new RepetitionResult(i + 1, true, null, null,
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, n, n, rates[i], null),
                new RoundTripTimes(new Latency(LatencyMode.MESSAGE, n, 1, 1, 1, p99s[i], 1, 1, 1), null, null),
                new ResourceUse(new CpuUsage(1, 1, 100), null), new JvmActivity(jit, null),
                new Checks(null, null, new Fairness(16, 1000, 1000, 1), null, null, i < warned
                        ? List.of("measured phase not JIT-quiet") : List.of(), List.of()),
                null, null, null));
        }
        Stat any = new Stat(1, 1, 1);
        List<String> warnings = reps.stream().flatMap(r -> r.checks().warnings().stream()
                .map(w -> "repetition " + r.repetition() + ": " + w)).toList();
        Summary summary = new Summary(rates.length, any, any, new Summary.LatencySummary(LatencyMode.MESSAGE, any,
                any, any, any, any, any, any), any, any, any, null, any, any, null, null, null, warnings, List.of(), null);
        return new CaseResult(spec, Transport.EPOLL, summary, reps, null);
    }

    /** {@code n} repetitions around {@code rate} and {@code p99}, each scaled by a lognormal of sd {@code spread}. */
    static CaseResult drawn(SplittableRandom random, int n, double rate, double p99, double spread) {
        double[] rates = new double[n];
        double[] p99s = new double[n];
        for (int i = 0; i < n; i++) {
            rates[i] = rate * Math.exp(spread * random.nextGaussian());
            p99s[i] = p99 * Math.exp(spread * random.nextGaussian());
        }
        return passed(SPEC, rates, p99s, 0);
    }
}
