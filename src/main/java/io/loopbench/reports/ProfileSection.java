package io.loopbench.reports;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.profile.Layer;
import io.loopbench.engine.profile.ProfileSummary;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A report's "Where the CPU time goes", per case group with a profiled case: one table of CPU µs per round trip by
 * layer with a column per IO profile (so that a matrix of many cases stays one table per group), what sampled each
 * case — why the flight recorder did, whether any stack reached the kernel — with a link to its flame graph, and
 * its threads with their largest layers, so that a layout whose threads are unevenly busy shows. A report without a
 * profiled case has no such part, and no layer definitions. Stateless.
 */
final class ProfileSection {

    /** How many of a thread's layers its row names. */
    private static final int THREAD_LAYERS = 3;

    private ProfileSection() {
    }

    /**
     * The CPU profiles of a passed case's repetitions, those its summary merged; empty when it failed or none was
     * profiled (records stored before profiles included).
     */
    static List<CpuProfile> profiles(CaseResult c) {
        return c.ok() && c.summary().cpuProfile() != null ? c.repetitions().stream()
                .map(RepetitionResult::cpuProfile).filter(Objects::nonNull).toList() : List.of();
    }

    static boolean any(ReportSource s) {
        return s.cases().stream().anyMatch(c -> !profiles(c).isEmpty());
    }

    static void write(StringBuilder md, ReportSource s, String chartBase) {
        if (!any(s)) {
            return;
        }
        Map<CaseResult, Integer> index = new IdentityHashMap<>();
        for (int i = 0; i < s.cases().size(); i++) {
            index.put(s.cases().get(i), i + 1);
        }
        md.append("## Where the CPU time goes\n\n");
        md.append("The measured phases of each profiled case were sampled by a CPU profiler (every thread of the "
                + "process), its repetitions' samples merged. A sample's time belongs to one layer (defined under \"Metric "
                + "definitions\"); a layer's CPU µs per round trip is its share of the samples × the process's CPU "
                + "time over those phases ÷ their validated round trips, so that cases of different throughputs "
                + "compare. Each cell gives the CPU µs per round trip and, in brackets, the share of the case's "
                + "samples. The threads' table shows how evenly a layout kept its threads busy. Shares are "
                + "estimates from samples: a layer with few samples is imprecise. A flame graph shows the call tree "
                + "(opened on its own, it names each frame's samples where the pointer rests).\n\n");
        for (CaseGroups g : CaseGroups.of(s.cases())) {
            List<CaseResult> profiled = g.succeeded().stream().filter(c -> !profiles(c).isEmpty()).toList();
            if (profiled.isEmpty()) {
                continue;
            }
            md.append("### ").append(g.title()).append("\n\n");
            layers(md, profiled);
            for (CaseResult c : g.succeeded()) {
                md.append("- ").append(c.ioLabel()).append(": ").append(!profiles(c).isEmpty()
                        ? sampled(c) + "; [flame graph](" + chartBase + "flame-" + index.get(c) + ".svg)"
                        : "not profiled").append(".\n");
            }
            md.append('\n');
            threads(md, profiled);
        }
    }

    /** A row per layer with samples in any of the cases, a column per case, then every layer together. */
    private static void layers(StringBuilder md, List<CaseResult> cases) {
        md.append("| Layer |");
        cases.forEach(c -> md.append(' ').append(c.ioLabel()).append(" |"));
        md.append("\n| --- |").append(" --- |".repeat(cases.size())).append('\n');
        for (Layer l : Layer.values()) {
            if (cases.stream().noneMatch(c -> c.summary().cpuProfile().layer(l).samples() > 0)) {
                continue;
            }
            md.append("| ").append(l.words()).append(" |");
            for (CaseResult c : cases) {
                ProfileSummary.LayerCost cost = c.summary().cpuProfile().layer(l);
                md.append(' ').append(cost.samples() == 0 ? "–" : cost(cost.cpuUsPerRoundTrip(), cost.share()))
                        .append(" |");
            }
            md.append('\n');
        }
        md.append("| all layers |");
        cases.forEach(c -> md.append(' ').append(Format.micros(usPerRoundTrip(c.summary().cpuProfile())))
                .append(" |"));
        md.append("\n\n");
    }

    /** "3 repetitions, 2,000 samples by async-profiler 4.2 (cpu)", with why the flight recorder sampled. */
    private static String sampled(CaseResult c) {
        List<CpuProfile> profiles = profiles(c);
        ProfileSummary p = c.summary().cpuProfile();
        String fallbacks = profiles.stream().map(CpuProfile::fallback).filter(Objects::nonNull).distinct()
                .collect(Collectors.joining("; "));
        return p.repetitions() + (p.repetitions() == 1 ? " repetition, " : " repetitions, ")
                + Format.count(p.samples()) + " samples by " + Format.text(p.profiler()) + " ("
                + Format.text(profiles.stream().map(CpuProfile::event).distinct().collect(Collectors.joining(", ")))
                + ")" + (fallbacks.isEmpty() ? "" : ", since " + Format.text(fallbacks))
                + (profiles.stream().anyMatch(CpuProfile::kernelFrames) ? "" : "; no stack reached into the kernel, "
                + "so the kernel's own work is not seen apart: it counts in the layer of the call that entered it");
    }

    /** A row per thread of each case, largest first, with its CPU per round trip and its largest layers. */
    private static void threads(StringBuilder md, List<CaseResult> cases) {
        md.append("| IO model | Thread | CPU µs per round trip (share) | Largest layers (share of the samples) |\n");
        md.append("| --- | --- | --- | --- |\n");
        for (CaseResult c : cases) {
            ProfileSummary p = c.summary().cpuProfile();
            for (CpuProfile.ThreadShare t : p.threads()) {
                md.append("| ").append(c.ioLabel()).append(" | ").append(Format.text(t.thread())).append(" | ")
                        .append(cost(t.share() * usPerRoundTrip(p), t.share())).append(" | ")
                        .append(t.layers().stream().limit(THREAD_LAYERS)
                                .map(l -> l.layer().words() + " " + share(l.share()))
                                .collect(Collectors.joining(", ")))
                        .append(" |\n");
            }
        }
        md.append('\n');
    }

    /** The process's CPU µs per round trip over the profiled phases: every layer's together. */
    private static double usPerRoundTrip(ProfileSummary p) {
        return p.layers().stream().mapToDouble(ProfileSummary.LayerCost::cpuUsPerRoundTrip).sum();
    }

    private static String cost(double us, double share) {
        return Format.micros(us) + " (" + share(share) + ")";
    }

    private static String share(double share) {
        return Format.oneDecimal(share * 100) + " %";
    }

    /** The layers' definitions, as bullets of the report's metric definitions. */
    static String definitions() {
        StringBuilder b = new StringBuilder("- **Layers** (\"Where the CPU time goes\"): a CPU sample's time belongs "
                + "to the layer of the deepest frame of its stack that names one; a frame that names none (a buffer "
                + "copy, a JVM stub, a kernel function) belongs to its caller's layer. A thread's own frame names the "
                + "collector's and the compilers' threads.\n");
        for (Layer l : Layer.values()) {
            b.append("- *").append(l.words()).append("*: ").append(l.meaning()).append(".\n");
        }
        return b.toString();
    }
}
