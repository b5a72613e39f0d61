package io.loopbench.engine.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where two cases' CPU time per round trip differs: each layer's and the most changed frames' CPU µs per round trip,
 * baseline and candidate, pooled over each side's profiled repetitions, so that cases of different throughputs
 * compare. Figures only: whether a layer's change is established is a verdict over the repetitions
 * ({@link #layerUsPerRoundTrip} gives one repetition's figure), which a sample count alone cannot make — two runs of
 * one spec differ by more than their samples' noise. Immutable.
 *
 * @param baselineUsPerRoundTrip  the baseline's CPU µs per round trip, every layer together
 * @param candidateUsPerRoundTrip the candidate's
 * @param layers                  every layer with samples on either side, largest change first
 * @param frames                  the frames whose inclusive µs per round trip changed most (at most {@link #FRAMES}),
 *                                largest change first
 */
public record ProfileDifference(double baselineUsPerRoundTrip, double candidateUsPerRoundTrip, List<Change> layers,
                                List<Change> frames) {

    /** How many frames are listed. */
    public static final int FRAMES = 10;

    public ProfileDifference {
        layers = List.copyOf(layers);
        frames = List.copyOf(frames);
    }

    /**
     * One layer or frame on both sides.
     *
     * @param name                    the layer's name in words ({@link Layer#words()}) or the frame
     * @param layer                   the layer; null for a frame
     * @param baselineUsPerRoundTrip  the baseline's CPU µs per round trip in it (a frame: with what it calls)
     * @param candidateUsPerRoundTrip the candidate's
     * @param changeUs                candidate − baseline
     * @param ratio                   candidate ÷ baseline; null when the baseline had no sample there
     */
    public record Change(String name, Layer layer, double baselineUsPerRoundTrip, double candidateUsPerRoundTrip,
                         double changeUs, Double ratio) {
    }

    /** One side: its profiles with the CPU seconds and round trips of the same measured phases. */
    public record Side(List<CpuProfile> profiles, double cpuSeconds, long roundTrips) {
        double usPerSample(long samples) {
            return samples == 0 ? 0 : ProfileSummary.cpuUsPerRoundTrip(cpuSeconds, roundTrips) / samples;
        }
    }

    /**
     * One repetition's CPU µs per round trip in a layer: the layer's share of its samples × its process's CPU time
     * over the measured phase ÷ its round trips; null without a round trip.
     */
    public static Double layerUsPerRoundTrip(CpuProfile profile, Layer layer, double cpuSeconds, long roundTrips) {
        return roundTrips == 0 ? null
                : profile.share(layer) * ProfileSummary.cpuUsPerRoundTrip(cpuSeconds, roundTrips);
    }

    /** The difference of two sides; null when either has no profile or no round trip. */
    public static ProfileDifference of(Side baseline, Side candidate) {
        if (baseline.profiles().isEmpty() || candidate.profiles().isEmpty() || baseline.roundTrips() == 0
                || candidate.roundTrips() == 0) {
            return null;
        }
        CpuProfile b = ProfileSummary.merged(baseline.profiles());
        CpuProfile c = ProfileSummary.merged(candidate.profiles());
        double bUs = baseline.usPerSample(b.samples());
        double cUs = candidate.usPerSample(c.samples());
        List<Change> layers = new ArrayList<>();
        for (Layer l : Layer.values()) {
            long bs = b.layer(l).samples();
            long cs = c.layer(l).samples();
            if (bs + cs > 0) {
                layers.add(change(l.words(), l, bs, cs, bUs, cUs));
            }
        }
        Map<String, Long> bf = inclusive(b);
        Map<String, Long> cf = inclusive(c);
        Set<String> names = new HashSet<>(bf.keySet());
        names.addAll(cf.keySet());
        List<Change> frames = new ArrayList<>();
        for (String f : names) {
            frames.add(change(f, null, bf.getOrDefault(f, 0L), cf.getOrDefault(f, 0L), bUs, cUs));
        }
        Comparator<Change> largest = Comparator.comparingDouble((Change x) -> Math.abs(x.changeUs())).reversed()
                .thenComparing(Change::name);
        layers.sort(largest);
        frames.sort(largest);
        return new ProfileDifference(b.samples() * bUs, c.samples() * cUs, layers,
                frames.subList(0, Math.min(FRAMES, frames.size())));
    }

    private static Change change(String name, Layer layer, long bs, long cs, double bUs, double cUs) {
        double b = bs * bUs;
        double c = cs * cUs;
        return new Change(name, layer, b, c, c - b, bs == 0 ? null : c / b);
    }

    /** Each frame's inclusive samples: those of every stack it is on, counted once per stack. */
    private static Map<String, Long> inclusive(CpuProfile p) {
        int[] t = p.tree();
        int n = t.length / 3;
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < n; i++) {
            long self = t[3 * i + 2];
            if (self == 0) {
                continue;
            }
            Set<Integer> seen = new HashSet<>();
            for (int node = i; node >= 0; node = t[3 * node]) {
                if (seen.add(t[3 * node + 1])) {
                    out.merge(p.frames().get(t[3 * node + 1]), self, Long::sum);
                }
            }
        }
        return out;
    }
}
