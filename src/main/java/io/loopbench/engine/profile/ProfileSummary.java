package io.loopbench.engine.profile;

import java.util.List;

/**
 * The CPU profiles of a case's repetitions merged: where its CPU time went, by layer as a share and as CPU µs per round
 * trip (so that cases of different throughputs compare), and by thread. Immutable.
 *
 * @param profiler    what sampled (the repetitions' profilers, joined when they differ)
 * @param repetitions how many repetitions had a profile
 * @param samples     their samples, together
 * @param layers      every layer, largest first
 * @param threads     samples by thread, merged by name, as in {@link CpuProfile#threads()}
 */
public record ProfileSummary(String profiler, int repetitions, long samples, List<LayerCost> layers,
                             List<CpuProfile.ThreadShare> threads) {

    public ProfileSummary {
        layers = List.copyOf(layers);
        threads = List.copyOf(threads);
    }

    /**
     * A layer (its label and its name in words), its samples, share of all samples, and CPU µs per round trip: its share
     * of the process's CPU time over the measured phases, divided by their validated round trips.
     */
    public record LayerCost(Layer layer, String words, long samples, double share, double cpuUsPerRoundTrip) {
    }

    /**
     * The profiles merged; {@code cpuSeconds} and {@code roundTrips} are those of the same repetitions' measured
     * phases, all together. Null when there are no profiles.
     */
    public static ProfileSummary of(List<CpuProfile> profiles, double cpuSeconds, long roundTrips) {
        if (profiles.isEmpty()) {
            return null;
        }
        CpuProfile merged = merged(profiles);
        double usPerRoundTrip = cpuUsPerRoundTrip(cpuSeconds, roundTrips);
        return new ProfileSummary(merged.profiler(), profiles.size(), merged.samples(),
                merged.layers().stream().map(l -> new LayerCost(l.layer(), l.words(), l.samples(), l.share(),
                        l.share() * usPerRoundTrip)).toList(), merged.threads());
    }

    /** CPU µs per round trip: {@code cpuSeconds} over {@code roundTrips}; 0 without a round trip. */
    static double cpuUsPerRoundTrip(double cpuSeconds, long roundTrips) {
        return roundTrips == 0 ? 0 : cpuSeconds * 1e6 / roundTrips;
    }

    /** Every profile's tree merged into one (frames and threads by name). */
    public static CpuProfile merged(List<CpuProfile> profiles) {
        return merged(profiles, profiles.stream().map(p -> "").toList());
    }

    /**
     * Every profile's tree merged into one, the threads of profile i renamed {@code [<threadPrefixes[i]>name]} (see
     * {@link CallTree#add(CpuProfile, String)}); the profilers named, the first fallback reason kept.
     */
    public static CpuProfile merged(List<CpuProfile> profiles, List<String> threadPrefixes) {
        CallTree tree = new CallTree();
        for (int i = 0; i < profiles.size(); i++) {
            tree.add(profiles.get(i), threadPrefixes.get(i));
        }
        CpuProfile first = profiles.getFirst();
        String profilers = String.join(", ", profiles.stream().map(CpuProfile::profiler).distinct().toList());
        String fallbacks = profiles.stream().map(CpuProfile::fallback).filter(f -> f != null).findFirst().orElse(null);
        return tree.toProfile(profilers, first.event(), fallbacks, first.intervalMicros());
    }

    /** This layer's cost, or a zero one. */
    public LayerCost layer(Layer layer) {
        return layers.stream().filter(l -> l.layer() == layer).findFirst()
                .orElse(new LayerCost(layer, layer.words(), 0, 0, 0));
    }
}
