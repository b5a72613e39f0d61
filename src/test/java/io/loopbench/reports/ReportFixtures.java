package io.loopbench.reports;

import io.loopbench.engine.IoModel;
import io.loopbench.engine.LatencyMode;
import io.loopbench.engine.Protocol;
import io.loopbench.engine.RunSpec;
import io.loopbench.engine.Stat;
import io.loopbench.engine.Summary;
import io.loopbench.engine.Transport;

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
                new Stat(99.4, 98, 101), new Stat(100 << 20, 99 << 20, 101 << 20), any);
        return new CaseResult(spec, Transport.EPOLL, s, 3, null);
    }

    static CaseResult failed(Protocol p, IoModel model, int threads, String error) {
        return new CaseResult(RunSpec.builder().protocol(p).ioModel(model).ioThreads(threads).build(),
                Transport.EPOLL, null, 3, error);
    }
}
