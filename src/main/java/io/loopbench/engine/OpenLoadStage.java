package io.loopbench.engine;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.LoopPacer;
import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.message.MessageFormat;
import org.HdrHistogram.Histogram;

/**
 * Open load only: messages due, late and dropped, the pacer's send lag, and how evenly the clients were served;
 * an overloaded pair or uneven clients warn.
 */
final class OpenLoadStage implements RepetitionStage {

    @Override
    public void run(RepetitionState s) {
        if (!s.open()) {
            return;
        }
        PhaseCounts m = s.measured.counts();
        s.openLoad = OpenLoad.of(s.spec.rate(), m.intendedMessages(), m.lateMessages(), m.droppedMessages(),
                LoopPacer.LATE_THRESHOLD_NANOS / 1000.0, LatencyHistograms.latency(LatencyMode.MESSAGE,
                        LatencyHistograms.merged(s.measured.phase().sendLag().values())),
                m.messages(), clientSpread(s));
        if (s.openLoad.overloaded()) { // always set by of()
            s.warnings.add(s.openLoad.warning(m.messages()));
        }
        String uneven = s.openLoad.clientSpread().warning();
        if (uneven != null) {
            s.warnings.add(uneven);
        }
    }

    /** The clients' corrected p99s and dropped shares of the measured phase, lowest and highest. */
    private static OpenLoad.ClientSpread clientSpread(RepetitionState s) {
        long fewest = Long.MAX_VALUE;
        double minP99 = Double.MAX_VALUE;
        double maxP99 = 0;
        double minDropped = 1;
        double maxDropped = 0;
        for (EchoClient c : s.clients) {
            Histogram h = c.openLoadLatency();
            PhaseCounts counts = c.counts(MessageFormat.MEASURED_TAG);
            double p99 = h.getValueAtPercentile(99) / 1000.0;
            double dropped = counts.intendedMessages() == 0 ? 0
                    : (double) counts.droppedMessages() / counts.intendedMessages();
            fewest = Math.min(fewest, h.getTotalCount());
            minP99 = Math.min(minP99, p99);
            maxP99 = Math.max(maxP99, p99);
            minDropped = Math.min(minDropped, dropped);
            maxDropped = Math.max(maxDropped, dropped);
        }
        return new OpenLoad.ClientSpread(s.clients.size(), fewest, minP99, maxP99, minDropped, maxDropped);
    }
}
