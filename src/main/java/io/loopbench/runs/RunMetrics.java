package io.loopbench.runs;

import io.loopbench.jobs.RunStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.List;

/**
 * Micrometer meters of the run service: runs by status, queue length, run duration, and the last finished run's
 * round trips/s and p99 (gauges tagged by protocol and ioModel). Thread-safe.
 */
public class RunMetrics implements RunListener {

    private final MeterRegistry registry;
    private final MultiGauge lastRoundTrips;
    private final MultiGauge lastP99;

    public RunMetrics(MeterRegistry registry, RunStore store) {
        this.registry = registry;
        for (RunStatus s : RunStatus.values()) {
            Gauge.builder("loopbench.runs", store, st -> st.all().stream().filter(r -> r.status() == s).count())
                    .description("Stored runs by status").tag("status", s.label()).register(registry);
        }
        // every queued run is in the queue, so the store's count is the queue's length
        Gauge.builder("loopbench.queue.length", store,
                        st -> st.all().stream().filter(r -> r.status() == RunStatus.QUEUED).count())
                .description("Runs waiting to be executed").register(registry);
        lastRoundTrips = MultiGauge.builder("loopbench.last.run.round.trips")
                .description("Median round trips per second of the last succeeded run").baseUnit("round trips/s")
                .register(registry);
        lastP99 = MultiGauge.builder("loopbench.last.run.rtt.p99")
                .description("Median p99 round-trip time of the last succeeded run").baseUnit("microseconds")
                .register(registry);
    }

    @Override
    public void changed(RunRecord run) {
        if (!run.status().isFinished() || run.finishedAt() == null) {
            return;
        }
        if (run.startedAt() != null) {
            Timer.builder("loopbench.run.duration").description("Wall time of finished runs")
                    .tag("status", run.status().label()).register(registry)
                    .record(Duration.between(run.startedAt(), run.finishedAt()));
        }
        if (run.summary() != null) {
            Tags tags = Tags.of("protocol", run.spec().protocol().label(), "ioModel", run.spec().ioModel().label());
            lastRoundTrips.register(List.of(MultiGauge.Row.of(tags, run.summary().roundTripsPerSecond().median())),
                    true);
            lastP99.register(List.of(MultiGauge.Row.of(tags, run.summary().latency().p99Us().median())), true);
        }
    }
}
