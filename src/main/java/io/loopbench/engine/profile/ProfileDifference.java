package io.loopbench.engine.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where two cases' CPU time per round trip differs: each layer's and the most changed frames' CPU µs per round trip,
 * baseline and candidate, so that cases of different throughputs compare. A change is a sampling estimate: each side's
 * µs come from its samples, so each change carries an approximate 95 % interval of the ratio from the sample counts
 * (Poisson, {@code exp(±1.96·√(1/a + 1/b))}) and is called {@code withinNoise} when the interval holds 1 — it does not
 * count the repetitions' own spread. Immutable.
 *
 * @param baselineUsPerRoundTrip  the baseline's CPU µs per round trip, every layer together
 * @param candidateUsPerRoundTrip the candidate's
 * @param layers                  every layer with samples on either side, largest change first
 * @param frames                  the frames whose inclusive µs per round trip changed most (at most {@link #FRAMES}),
 *                                largest change first
 * @param words                   the largest layer change beyond noise, in a sentence; or that none is
 */
public record ProfileDifference(double baselineUsPerRoundTrip, double candidateUsPerRoundTrip, List<Change> layers,
                                List<Change> frames, String words) {

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
     * @param baselineUsPerRoundTrip  the baseline's CPU µs per round trip in it (a frame: with what it calls)
     * @param candidateUsPerRoundTrip the candidate's
     * @param changeUs                candidate − baseline
     * @param ratio                   candidate ÷ baseline; null when the baseline had no sample there
     * @param ratioLow                the ratio's approximate 95 % interval, low end; null with {@code ratio}
     * @param ratioHigh               its high end; null with {@code ratio}
     * @param withinNoise             whether the interval holds 1 (or a side has under 5 samples)
     */
    public record Change(String name, double baselineUsPerRoundTrip, double candidateUsPerRoundTrip, double changeUs,
                         Double ratio, Double ratioLow, Double ratioHigh, boolean withinNoise) {
    }

    /** One side: its profiles with the CPU seconds and round trips of the same measured phases. */
    public record Side(String name, List<CpuProfile> profiles, double cpuSeconds, long roundTrips) {
        double usPerSample(long samples) {
            return roundTrips == 0 || samples == 0 ? 0 : cpuSeconds * 1e6 / roundTrips / samples;
        }
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
            long bs = samples(b, l);
            long cs = samples(c, l);
            if (bs + cs > 0) {
                layers.add(change(l.words(), bs, cs, bUs, cUs));
            }
        }
        Map<String, Long> bf = inclusive(b);
        Map<String, Long> cf = inclusive(c);
        Set<String> names = new HashSet<>(bf.keySet());
        names.addAll(cf.keySet());
        List<Change> frames = new ArrayList<>();
        for (String f : names) {
            frames.add(change(f, bf.getOrDefault(f, 0L), cf.getOrDefault(f, 0L), bUs, cUs));
        }
        Comparator<Change> largest = Comparator.comparingDouble((Change x) -> Math.abs(x.changeUs())).reversed()
                .thenComparing(Change::name);
        layers.sort(largest);
        frames.sort(largest);
        return new ProfileDifference(b.samples() * bUs, c.samples() * cUs, layers,
                frames.subList(0, Math.min(FRAMES, frames.size())), words(baseline.name(), candidate.name(), layers));
    }

    private static long samples(CpuProfile p, Layer l) {
        return p.layers().stream().filter(s -> s.layer() == l).mapToLong(CpuProfile.LayerShare::samples).sum();
    }

    private static Change change(String name, long bs, long cs, double bUs, double cUs) {
        double b = bs * bUs;
        double c = cs * cUs;
        if (bs == 0) {
            return new Change(name, b, c, c - b, null, null, null, cs < 5);
        }
        double ratio = c / b;
        double spread = cs == 0 ? Double.POSITIVE_INFINITY : 1.96 * Math.sqrt(1.0 / bs + 1.0 / cs);
        double low = ratio * Math.exp(-spread);
        double high = ratio * Math.exp(spread);
        return new Change(name, b, c, c - b, ratio, low, Double.isInfinite(high) ? null : high,
                bs < 5 || cs < 5 || (low <= 1 && (Double.isInfinite(high) || high >= 1)));
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

    private static String words(String baseline, String candidate, List<Change> layers) {
        return layers.stream().filter(c -> !c.withinNoise() && c.ratio() != null).findFirst()
                .map(c -> String.format(Locale.ROOT, "%s spends %.0f %% %s CPU per round trip in %s than %s "
                                + "(%.2f µs against %.2f µs; 95 %% interval of the ratio %.2f–%.2f, from sample counts)",
                        candidate, Math.abs(c.ratio() - 1) * 100, c.ratio() < 1 ? "less" : "more",
                        c.name(), baseline,
                        c.candidateUsPerRoundTrip(), c.baselineUsPerRoundTrip(), c.ratioLow(),
                        c.ratioHigh() == null ? Double.POSITIVE_INFINITY : c.ratioHigh()))
                .orElse("no layer's CPU per round trip differs beyond the sampling noise");
    }
}
