package io.loopbench.reports;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.latency.Spectrum;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.profile.ProfileSummary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A report's SVG charts, by name, as its Markdown links them: throughput and p99 per case group, p99 against
 * throughput per rate curve, each repetition's timeline, each case's latency spectrum and its flame graph. Every
 * figure comes from the source. Stateless and thread-safe.
 */
public final class ReportCharts {

    private ReportCharts() {
    }

    /**
     * Chart names of a source: {@code throughput-N} and {@code p99-N} per group N, {@code rate-N} per rate curve,
     * {@code timeline-C-R} per repetition R of case C (1-based, in the source's order) with a timeline,
     * {@code spectrum-C} per case C with stored histograms, and {@code flame-C} per passed case C with CPU profiles.
     */
    public static List<String> chartNames(ReportSource source) {
        List<String> names = new ArrayList<>(Stream.concat(CaseGroups.of(source.cases()).stream()
                        .flatMap(g -> g.succeeded().isEmpty() ? Stream.<String>empty()
                                : Stream.of("throughput-" + g.index(), "p99-" + g.index())),
                RateCurves.of(source.cases()).stream().map(c -> "rate-" + c.index())).toList());
        for (int c = 1; c <= source.cases().size(); c++) {
            CaseResult kase = source.cases().get(c - 1);
            for (RepetitionResult r : kase.repetitions()) {
                if (r.timeline() != null) {
                    names.add("timeline-" + c + "-" + r.repetition());
                }
            }
            if (!Spectra.of(kase).series().isEmpty()) {
                names.add("spectrum-" + c);
            }
            if (!ProfileSection.profiles(kase).isEmpty()) {
                names.add("flame-" + c);
            }
        }
        return names;
    }

    /** A repetition's timeline chart ({@code timeline-C-R}) or a case's spectra ({@code spectrum-C}), if it has it. */
    private static Optional<String> overTime(ReportSource source, String name) {
        String[] parts = name.split("-");
        Optional<CaseResult> found = parts.length < 2 ? Optional.empty() : kase(source, parts[1]);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        CaseResult kase = found.get();
        try {
            if (parts[0].equals("spectrum") && parts.length == 2) {
                Map<String, Spectrum> series = new LinkedHashMap<>();
                Spectra.of(kase).series().forEach(s -> series.put(s.name(), s.spectrum()));
                return series.isEmpty() ? Optional.empty()
                        : Optional.of(ChartRenderer.spectrumChart("Latency by percentile — " + kase.groupTitle()
                                + " / " + kase.ioLabel(), series));
            }
            int rep = Integer.parseInt(parts[2]);
            return parts.length != 3 ? Optional.empty() : kase.repetitions().stream()
                    .filter(r -> r.repetition() == rep && r.timeline() != null).findFirst()
                    .map(r -> ChartRenderer.timelineChart("Repetition " + rep + " over time — "
                            + kase.groupTitle() + " / " + kase.ioLabel(), r.timeline()));
        } catch (RuntimeException e) { // not a number, or too few parts: no such chart
            return Optional.empty();
        }
    }

    /** Case C's flame graph ({@code flame-C}): its profiled repetitions' call trees merged, if it has any. */
    private static Optional<String> flame(ReportSource source, String name) {
        return kase(source, name.substring("flame-".length())).flatMap(kase -> {
            List<CpuProfile> profiles = ProfileSection.profiles(kase);
            return profiles.isEmpty() ? Optional.empty() : Optional.of(FlameGraph.svg("Where the CPU time goes — "
                    + kase.groupTitle() + " / " + kase.ioLabel() + " (" + profiles.size()
                    + (profiles.size() == 1 ? " repetition)" : " repetitions merged)"),
                    ProfileSummary.merged(profiles)));
        });
    }

    /** The case a chart name numbers ({@code C}, 1-based, in the source's order); empty when none is. */
    private static Optional<CaseResult> kase(ReportSource source, String number) {
        try {
            int c = Integer.parseInt(number);
            return c < 1 || c > source.cases().size() ? Optional.empty() : Optional.of(source.cases().get(c - 1));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The SVG chart of that name, if the source has it. {@code throughput} and {@code p99} alone mean group 1 (a
     * run has one group).
     */
    public static Optional<String> chart(ReportSource source, String name) {
        if (name.startsWith("timeline-") || name.startsWith("spectrum-")) {
            return overTime(source, name);
        }
        if (name.startsWith("flame-")) {
            return flame(source, name);
        }
        String[] parts = name.split("-", 2);
        int index;
        try {
            index = parts.length == 1 ? 1 : Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (parts[0].equals("rate")) {
            return RateCurves.of(source.cases()).stream().filter(c -> c.index() == index).findFirst()
                    .map(c -> {
                        Map<String, List<double[]>> series = new LinkedHashMap<>();
                        c.curves().forEach((io, points) -> series.put(io, points.stream()
                                .map(p -> new double[] {p.summary().roundTripsPerSecond().median(),
                                        p.summary().latency().p99Us().median()}).toList()));
                        return ChartRenderer.lineChart("p99 against throughput — " + c.title(),
                                "round trips per second achieved", "p99 RTT from the intended send time (µs)",
                                series, source.p99Bound());
                    });
        }
        boolean throughput = parts[0].equals("throughput");
        if (!throughput && !parts[0].equals("p99")) {
            return Optional.empty();
        }
        return CaseGroups.of(source.cases()).stream()
                .filter(g -> g.index() == index && !g.succeeded().isEmpty())
                .findFirst()
                .map(g -> {
                    List<ChartRenderer.Bar> bars = g.succeeded().stream().map(c -> {
                        var s = throughput ? c.summary().roundTripsPerSecond() : c.summary().latency().p99Us();
                        return new ChartRenderer.Bar(c.ioLabel(), s.median(), s.min(), s.max());
                    }).toList();
                    String mode = g.succeeded().getFirst().summary().latency().mode() == LatencyMode.BATCH
                            ? "batch " : "";
                    return throughput
                            ? ChartRenderer.barChart("Throughput — " + g.title(), "round trips per second", bars)
                            : ChartRenderer.barChart("p99 " + mode + "round-trip time — " + g.title(),
                            "p99 " + mode + "RTT (µs)", bars);
                });
    }
}
