package io.loopbench.worker;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.process.Startup;
import io.loopbench.engine.profile.CpuProfile;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The progress lines a person reads on stderr, the same from {@code ./loopbench measure} and from the service's
 * forked worker (whose stderr the run keeps): one when a phase starts, one when a repetition finishes. Stateless.
 */
public final class ProgressLines {

    private ProgressLines() {
    }

    /** {@code [1/3] warmup at most 10.0 s (JVM up 412 ms)}; {@code auto}: the warm-up's length is its cap. */
    public static String phase(int repetition, int repetitions, String phase, double seconds, boolean auto) {
        return String.format(Locale.ROOT, "[%d/%d] %s %s%.3g s (JVM up %d ms)", repetition, repetitions, phase,
                phase.equals("warmup") && auto ? "at most " : "", seconds,
                ManagementFactory.getRuntimeMXBean().getUptime());
    }

    /** A profile's three largest layers, e.g. {@code kernel send 61 %, echo check 14 %, kernel receive 13 %}. */
    private static String layers(CpuProfile p) {
        return p.layers().stream().limit(3).map(l -> String.format(Locale.ROOT, "%s %.0f %%", l.words(),
                100 * l.share())).collect(Collectors.joining(", "));
    }

    /**
     * Its figures, warm-up, failure, warnings and notes; the first repetition's line says when this process echoed
     * first (see {@link Startup}).
     */
    public static String finished(RepetitionResult r, int repetitions) {
        if (r.throughput().roundTripsPerSecond() == null) {
            return String.format(Locale.ROOT, "[%d/%d] failed: %s", r.repetition(), repetitions, r.error());
        }
        Long firstEcho = r.repetition() == 1 ? Startup.current().firstEchoMillis() : null;
        return String.format(Locale.ROOT,
                "[%d/%d] %s: %,.0f round trips/s, p50 %.1f us, p99 %.1f us, CPU %.0f %%%s%s%s%s%s%s", r.repetition(),
                repetitions, r.setup().transport().label(), r.throughput().roundTripsPerSecond(),
                r.rtt().latency().p50Us(), r.rtt().latency().p99Us(),
                r.resources().cpu().percent(),
                r.checks().warmup() == null ? "" : String.format(Locale.ROOT, ", warm-up %.1f s (%s)",
                        r.checks().warmup().elapsedSeconds(), r.checks().warmup().stoppedBecause()),
                firstEcho == null ? "" : ", first echo " + firstEcho + " ms after process start",
                r.cpuProfile() == null ? "" : ", CPU by layer: " + layers(r.cpuProfile()),
                r.ok() ? "" : " (FAILED: " + r.error() + ")",
                r.checks().warnings().isEmpty() ? "" : " (WARNING: " + String.join("; ", r.checks().warnings()) + ")",
                r.checks().notes().isEmpty() ? "" : " (note: " + String.join("; ", r.checks().notes()) + ")");
    }
}
