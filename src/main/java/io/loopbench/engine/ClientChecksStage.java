package io.loopbench.engine;

import io.loopbench.engine.client.GroupShare;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.timeline.TimelineRecording;
import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The self-checks of the clients' load: how evenly they were served (a starved client or a stalled message fails
 * the repetition), whether closed sliding windows were kept full, and the gap from a message's send stamp to its
 * hand-over to the transport; each check that does not hold warns.
 */
final class ClientChecksStage implements RepetitionStage {

    @Override
    public void run(RepetitionState s) {
        boolean open = s.open();
        boolean batchRtt = s.batchRtt();
        double elapsed = s.throughput.elapsedSeconds();
        long messages = s.throughput.messages();
        // the RTT from the actual send time: under open load the corrected RTT adds the pacer's lag
        Latency sent = open ? s.rtt.uncorrectedLatency() : s.rtt.latency();
        TimelineRecording.Result timeline = s.measured.timeline();
        long[] perClient = s.clients.stream().mapToLong(c -> c.counts(MessageFormat.MEASURED_TAG).messages())
                .toArray();
        s.fairness = Fairness.of(perClient).withPopulations(ClientPopulations.of(perClient, s.sameThread,
                !open && !batchRtt ? s.spec.window() : null, elapsed, groupP99(timeline, true, batchRtt),
                groupP99(timeline, false, batchRtt)));
        s.fail(unfairness(s, perClient, sent));
        warnUnless(s, s.fairness.warning());
        if (!open && !batchRtt && messages > 0) {
            s.windowFill = WindowFill.of(s.spec.clients(), s.spec.window(), s.throughput.roundTripsPerSecond(),
                    s.rtt.latency().meanUs());
            warnUnless(s, s.windowFill.holds() ? null : s.windowFill.warning());
        }
        if (messages > 0) {
            s.stampGap = StampGap.of(LatencyHistograms.merged(s.measured.phase().stampGap().values()),
                    open ? sent : LatencyHistograms.latency(LatencyMode.MESSAGE, timeline.rtt()));
            warnUnless(s, s.stampGap.holds() ? null : s.stampGap.warning());
        }
    }

    private static void warnUnless(RepetitionState s, String warning) {
        if (warning != null) {
            s.warnings.add(warning);
        }
    }

    /**
     * Why a repetition that validated every echo still cannot stand for its spec: a client starved (under a tenth of
     * the mean: "unfair"), or a message that waited over a quarter of the phase ("stalled"); null when neither.
     */
    private static Failure unfairness(RepetitionState s, long[] perClient, Latency latency) {
        double mean = (double) Arrays.stream(perClient).sum() / perClient.length;
        for (int i = 0; i < perClient.length; i++) {
            long done = perClient[i];
            if (done < mean / 10) {
                return new Failure.Unfair(null, i, done, mean, s.fairness.jainIndex());
            }
        }
        double quarterUs = s.spec.seconds() * 1e6 / 4;
        if (latency.maxUs() > quarterUs) {
            return new Failure.Stalled(latency.maxUs(), s.spec.seconds());
        }
        return null;
    }

    /** The p99 of the clients put in group {@code same} (see {@link Repetition}), µs; null without such a group. */
    private static Double groupP99(TimelineRecording.Result timeline, boolean same, boolean batchRtt) {
        List<Histogram> group = timeline.rttByRecorder().entrySet().stream()
                .filter(e -> e.getKey() instanceof GroupShare g && g.group().equals(same))
                .map(Map.Entry::getValue).toList();
        if (group.isEmpty()) {
            return null;
        }
        Latency l = LatencyHistograms.latency(batchRtt ? LatencyMode.BATCH : LatencyMode.MESSAGE,
                LatencyHistograms.merged(group));
        return l.observations() > 0 ? l.p99Us() : null;
    }
}
