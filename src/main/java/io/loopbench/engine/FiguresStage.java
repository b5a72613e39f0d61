package io.loopbench.engine;

import io.loopbench.engine.client.PhaseCounts;
import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.process.CpuUsage;
import org.HdrHistogram.Histogram;

/**
 * The measured phase's figures: throughput, round-trip times (per batch with batch windows; under open load also
 * from each message's actual send time) and the process's CPU and memory.
 */
final class FiguresStage implements RepetitionStage {

    @Override
    public void run(RepetitionState s) {
        PhaseRunner.Outcome m = s.measured.phase();
        PhaseCounts counts = s.measured.counts();
        double elapsed = m.elapsedNanos() / 1e9;
        s.throughput = Throughput.of(elapsed, counts.messagesSent(), counts.messages(), s.spec.payloadBytes());
        Histogram all = s.measured.timeline().rtt();
        s.rtt = new RoundTripTimes(
                LatencyHistograms.latency(s.batchRtt() ? LatencyMode.BATCH : LatencyMode.MESSAGE, all),
                s.open() ? LatencyHistograms.latency(LatencyMode.MESSAGE,
                        LatencyHistograms.merged(m.uncorrected().values())) : null,
                LatencyHistograms.encode(all));
        double cpuSeconds = m.cpuNanos() / 1e9;
        s.resources = new ResourceUse(new CpuUsage(cpuSeconds, elapsed, cpuSeconds / elapsed * 100),
                s.measured.memory(), s.offloadGauge == null ? null : s.offloadGauge.use(m.elapsedNanos()));
    }
}
