package io.loopbench.reports;

import io.loopbench.engine.CpuUsage;
import io.loopbench.engine.IoModel;
import io.loopbench.engine.LatencyMode;
import io.loopbench.engine.Protocol;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.RunSpec;
import io.loopbench.engine.Stat;
import io.loopbench.engine.Summary;
import io.loopbench.engine.Transport;

import java.util.List;

/** Cases with chosen figures, for tests of the report rules. */
final class ReportFixtures {

    private ReportFixtures() {
    }

    static CaseResult ok(Protocol p, IoModel model, int threads, Stat roundTrips, Stat p99) {
        return ok(RunSpec.builder().protocol(p).ioModel(model).ioThreads(threads).build(), roundTrips, p99);
    }

    static CaseResult ok(RunSpec spec, Stat roundTrips, Stat p99) {
        Stat any = new Stat(1, 1, 1);
        Summary s = new Summary(3, roundTrips, any,
                new Summary.LatencySummary(LatencyMode.MESSAGE, any, any, any, p99, any, any, any),
                new Stat(99.4, 98, 101), new Stat(100 << 20, 99 << 20, 101 << 20), any, null, null, null, null, null,
                null, List.of());
        return new CaseResult(spec, Transport.EPOLL, s, List.of(), null);
    }

    static CaseResult failed(Protocol p, IoModel model, int threads, String error) {
        return new CaseResult(RunSpec.builder().protocol(p).ioModel(model).ioThreads(threads).build(),
                Transport.EPOLL, null, List.of(), error);
    }

    /** A case with only its repetitions, as a matched comparison of executions reads it. */
    static CaseResult measured(RunSpec spec, RepetitionResult... repetitions) {
        return new CaseResult(spec, Transport.EPOLL, null, List.of(repetitions), null);
    }

    /** A passed repetition of one measured second: {@code roundTrips} echoes, {@code cpuPercent} % of one CPU. */
    static RepetitionResult repetition(int index, long roundTrips, double cpuPercent) {
        return new RepetitionResult(index, true, null, Transport.EPOLL, null, null, null, null, false, 1, null, null,
                null, 1.0, roundTrips, roundTrips, (double) roundTrips, null, null,
                new CpuUsage(cpuPercent / 100, 1.0, cpuPercent), null, null, null, null, null, null, null, null, null,
                List.of(), null);
    }

    /** A repetition that failed, with figures that must not be used. */
    static RepetitionResult failedRepetition(int index) {
        return new RepetitionResult(index, false, "measured phase: unfinishedMessages=2", Transport.EPOLL, null, null,
                null, null, false, 1, null, null, null, 1.0, 10L, 8L, 8.0, null, null, new CpuUsage(5, 1.0, 500),
                null, null, null, null, null, null, null, null, null, List.of(), null);
    }
}
