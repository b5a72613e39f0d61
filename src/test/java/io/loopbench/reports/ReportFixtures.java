package io.loopbench.reports;

import io.loopbench.engine.Checks;
import io.loopbench.engine.EchoPairSetup;
import io.loopbench.engine.Failure;
import io.loopbench.engine.Fairness;
import io.loopbench.engine.JvmActivity;
import io.loopbench.engine.OpenLoad;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.ResourceUse;
import io.loopbench.engine.RoundTripTimes;
import io.loopbench.engine.Stat;
import io.loopbench.engine.Summary;
import io.loopbench.engine.Throughput;
import io.loopbench.engine.WarmupResult;
import io.loopbench.engine.WindowFill;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.WarmupMode;

import io.loopbench.engine.protocol.TlsSession;

import io.loopbench.engine.profile.CallTree;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.profile.ProfileSummary;

import java.util.List;

/** Cases with chosen figures, for tests of the report rules. */
final class ReportFixtures {

    private ReportFixtures() {
    }

    static CaseResult ok(Protocol p, IoModel model, int threads, Stat roundTrips, Stat p99) {
        return ok(RunSpec.builder().protocol(p).ioModel(model).ioThreads(threads).build(), roundTrips, p99);
    }

    static CaseResult ok(RunSpec spec, Stat roundTrips, Stat p99) {
        return new CaseResult(spec, Transport.EPOLL, summary(roundTrips, p99, null, null, null, List.of()),
                repetitionsOf(roundTrips, p99), null);
    }

    /**
     * Three passed repetitions whose round trips/s and p99 are the two Stats' median, min and max, in that order
     * (repetitions 1, 2 and 3): what a verdict reads.
     */
    static List<RepetitionResult> repetitionsOf(Stat roundTrips, Stat p99) {
        return List.of(passed(1, roundTrips.median(), p99.median()), passed(2, roundTrips.min(), p99.min()),
                passed(3, roundTrips.max(), p99.max()));
    }

    /** A passed, clean repetition of one measured second with this throughput and p99. */
    static RepetitionResult passed(int index, double roundTripsPerSecond, double p99Us) {
        return passed(index, roundTripsPerSecond, p99Us, null);
    }

    /** {@link #passed(int, double, double)} with a CPU profile of its measured second. */
    static RepetitionResult passed(int index, double roundTripsPerSecond, double p99Us, CpuProfile profile) {
        long messages = Math.round(roundTripsPerSecond);
        return new RepetitionResult(index, true, null, null,
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, messages, messages, roundTripsPerSecond, null),
                new RoundTripTimes(new Latency(LatencyMode.MESSAGE, messages, 1, 1, 1, p99Us, 1, 1, 1), null, null),
                new ResourceUse(new CpuUsage(1, 1.0, 100), null), new JvmActivity(QUIET, null),
                new Checks(null, null, new Fairness(16, 6000, 6500, 0.999), null, null, List.of(), List.of()),
                null, null, profile);
    }

    /**
     * A passed case of three repetitions of one CPU second at {@code roundTripsPerSecond} (p99 100 µs), each with this
     * profile, merged into its summary as the engine merges them.
     */
    static CaseResult profiled(RunSpec spec, double roundTripsPerSecond, CpuProfile profile) {
        return profiled(spec, roundTripsPerSecond, List.of(profile, profile, profile));
    }

    /** A passed case of a repetition per profile, each a CPU second at this throughput with its profile. */
    static CaseResult profiled(RunSpec spec, double roundTripsPerSecond, List<CpuProfile> profiles) {
        List<RepetitionResult> reps = java.util.stream.IntStream.rangeClosed(1, profiles.size())
                .mapToObj(i -> passed(i, roundTripsPerSecond, 100, profiles.get(i - 1))).toList();
        Stat roundTrips = new Stat(roundTripsPerSecond, roundTripsPerSecond, roundTripsPerSecond);
        return new CaseResult(spec, Transport.EPOLL, summary(roundTrips, new Stat(100, 100, 100), null, null, null,
                List.of(), ProfileSummary.of(reps.stream().map(RepetitionResult::cpuProfile).toList(),
                        reps.stream().mapToDouble(r -> r.resources().cpu().seconds()).sum(),
                        reps.stream().mapToLong(rep -> rep.throughput().messages()).sum())), reps, null);
    }

    /** A loop thread's profile: {@code send} samples in the kernel's send path, {@code pipeline} in Netty's. */
    static CpuProfile loopProfile(int send, int pipeline) {
        String loop = "[loopbench-epoll-0-1];io/netty/channel/epoll/EpollIoHandler.run;";
        CallTree t = new CallTree();
        t.addCollapsed(loop + "io/netty/channel/unix/FileDescriptor.writeAddress;tcp_sendmsg_[k] " + send + "\n"
                + loop + "io/netty/channel/DefaultChannelPipeline.fireChannelRead " + pipeline);
        return t.toProfile("async-profiler 4.2", "cpu", null, 5000);
    }

    /**
     * An open-load case at its spec's rate of six repetitions, each dropping {@code droppedFraction} of the 100,000
     * messages it intended, whose p99s are the Stat's median, min and max twice over, each a thousandth apart from the
     * last so that none ties (a tie makes the signed-rank test approximate).
     */
    static CaseResult open(RunSpec spec, Stat roundTrips, Stat p99, double droppedFraction) {
        long dropped = Math.round(droppedFraction * 100_000);
        OpenLoad load = OpenLoad.of(spec.rate(), 100_000, 0, dropped, 100, null, 100_000 - dropped, null);
        double[] p99s = {p99.median(), p99.min(), p99.max()};
        List<RepetitionResult> reps = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            reps.add(new RepetitionResult(i + 1, true, null, null,
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, 100_000L, 100_000L, roundTrips.median(), null),
                new RoundTripTimes(new Latency(LatencyMode.MESSAGE, 100_000, 1, 1, 1, p99s[i % 3] * (1 + i / 1000.0),
                        1, 1, 1), null, null),
                new ResourceUse(null, null), new JvmActivity(QUIET, null),
                new Checks(null, null, new Fairness(16, 6000, 6500, 0.999), null, null, List.of(), List.of()),
                load, null, null));
        }
        return new CaseResult(spec, Transport.EPOLL, summary(roundTrips, p99, null, null, null, List.of()), reps,
                null);
    }

    /** A summary with chosen throughput, p99, pooled p99 (null: none), Jain's index, window fill and warnings. */
    static Summary summary(Stat roundTrips, Stat p99, Double pooledP99, Stat jain, Stat windowFill,
                           List<String> warnings) {
        return summary(roundTrips, p99, pooledP99, jain, windowFill, warnings, null);
    }

    /** The same, with the repetitions' CPU profiles merged (null: none profiled). */
    static Summary summary(Stat roundTrips, Stat p99, Double pooledP99, Stat jain, Stat windowFill,
                           List<String> warnings, ProfileSummary cpuProfile) {
        Stat any = new Stat(1, 1, 1);
        return new Summary(3, roundTrips, any,
                new Summary.LatencySummary(LatencyMode.MESSAGE, any, any, any, p99, any, any, any),
                new Stat(99.4, 98, 101), new Stat(100 << 20, 99 << 20, 101 << 20), any,
                pooledP99 == null ? null : new Latency(LatencyMode.MESSAGE, 3000, 1, 1, 1, pooledP99, 1, 1, 1),
                jain, windowFill, null, null, null, warnings, List.of(), cpuProfile);
    }

    /** A measured phase with no JIT activity. */
    static final JitActivity QUIET = new JitActivity(0, 0, 0, true, List.of(), 0L, 0L, 0L, 0.0);

    /**
     * A passed repetition with its self-checks: {@code jit} in the measured phase, the fairness and window fill it
     * found, an auto warm-up of {@code warmupSeconds} that stopped because {@code stoppedBecause}, and warnings.
     */
    static RepetitionResult checked(int index, JitActivity jit, Fairness fairness, double windowFillRatio,
                                    double warmupSeconds, String stoppedBecause, String... warnings) {
        return new RepetitionResult(index, true, null, null,
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, 1000L, 1000L, 1000.0, null),
                new RoundTripTimes(null, null, null),
                new ResourceUse(new CpuUsage(1, 1.0, 100), null), new JvmActivity(jit, null),
                new Checks(null, new WarmupResult(WarmupMode.AUTO, warmupSeconds, 5000, null, stoppedBecause,
                        WarmupResult.CAP.equals(
                        stoppedBecause) ? "throughput moved +12.0 % from one second to the next (at most ±10 %)" : null,
                        QUIET), fairness, new WindowFill(256, 256 * windowFillRatio, windowFillRatio), null,
                                List.of(warnings), List.of()),
                null, null, null);
    }

    /** A repetition that validated every echo but failed as unfair, worded as the engine words it. */
    static RepetitionResult unfairRepetition(int index) {
        return unfairRepetition(index, new Failure.Unfair(null, 3, 12, 1000, 0.94));
    }

    /** The same, failed as {@code failure} says. */
    static RepetitionResult unfairRepetition(int index, Failure failure) {
        return new RepetitionResult(index, false, null, failure,
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, 16_012L, 16_012L, 16_012.0, null),
                new RoundTripTimes(null, null, null),
                new ResourceUse(new CpuUsage(1, 1.0, 100), null), new JvmActivity(QUIET, null),
                new Checks(null, null, new Fairness(16, 12, 1100, 0.94), null, null, List.of(), List.of()),
                null, null, null);
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
        return repetition(index, roundTrips, cpuPercent, null);
    }

    /** The same, with what its TLS handshake negotiated. */
    static RepetitionResult repetition(int index, long roundTrips, double cpuPercent, TlsSession tls) {
        return new RepetitionResult(index, true, null, null,
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, tls),
                new Throughput(1.0, roundTrips, roundTrips, (double) roundTrips, null),
                new RoundTripTimes(null, null, null),
                new ResourceUse(new CpuUsage(cpuPercent / 100, 1.0, cpuPercent), null), new JvmActivity(null, null),
                new Checks(null, null, null, null, null, List.of(), List.of()),
                null, null, null);
    }

    /** A repetition that failed, with figures that must not be used. */
    static RepetitionResult failedRepetition(int index) {
        return new RepetitionResult(index, false, null, new Failure.ErrorCounters("measured phase",
                "unfinishedMessages=2", null),
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, 10L, 8L, 8.0, null),
                new RoundTripTimes(null, null, null),
                new ResourceUse(new CpuUsage(5, 1.0, 500), null), new JvmActivity(null, null),
                new Checks(null, null, null, null, null, List.of(), List.of()),
                null, null, null);
    }

    /**
     * A passed repetition of one measured second with {@code roundTrips} echoes, its RTT histogram (every echo at
     * {@code rttMicros}, one at ten times that) and a timeline of a 0.2 s warm-up and a 1 s measured phase in 0.1 s
     * intervals, with one GC pause in its fifth measured interval.
     */
    static RepetitionResult withTimeline(int index, long roundTrips, long rttMicros) {
        org.HdrHistogram.Histogram h = io.loopbench.engine.latency.LatencyHistograms.create();
        h.recordValueWithCount(rttMicros * 1000, roundTrips - 1);
        h.recordValue(rttMicros * 10_000);
        int n = 12;
        List<Double> start = java.util.stream.IntStream.range(0, n).mapToObj(i -> i / 10.0).toList();
        List<Double> tenth = java.util.Collections.nCopies(n, 0.1);
        List<Long> perInterval = java.util.Collections.nCopies(n, roundTrips / 10);
        List<Double> rate = java.util.Collections.nCopies(n, roundTrips * 1.0);
        List<Double> rtt = java.util.Collections.nCopies(n, (double) rttMicros);
        List<Integer> none = java.util.Collections.nCopies(n, 0);
        List<Integer> gc = java.util.stream.IntStream.range(0, n).map(i -> i == 6 ? 1 : 0).boxed().toList();
        var timeline = new io.loopbench.engine.timeline.Timeline(100, 2, start, tenth, perInterval, rate, rtt, rtt,
                rtt, gc, gc.stream().map(Integer::doubleValue).toList(), none, tenth, none, null, null);
        return new RepetitionResult(index, true, null, null,
                new EchoPairSetup(Transport.EPOLL, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, roundTrips, roundTrips, (double) roundTrips, null),
                new RoundTripTimes(null, null, io.loopbench.engine.latency.LatencyHistograms.encode(h)),
                new ResourceUse(new CpuUsage(1, 1.0, 100), null), new JvmActivity(QUIET, null),
                new Checks(null, null, null, null, null, List.of(), List.of()),
                null, timeline, null);
    }
}
