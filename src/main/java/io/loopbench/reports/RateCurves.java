package io.loopbench.reports;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Open-load rate sweeps: the succeeded cases that differ only by IO profile and rate, one curve per IO profile of
 * p99 (from the intended send time) against the throughput achieved, and for each IO profile the highest rate at
 * which p99 stays under the bound. Stateless.
 *
 * @param index  1-based, used in chart names ({@code rate-1.svg})
 * @param title  what the curves share
 * @param curves per IO profile, its cases from the lowest rate to the highest
 */
public record RateCurves(int index, String title, Map<String, List<CaseResult>> curves) {

    public static List<RateCurves> of(List<CaseResult> cases) {
        Map<String, Map<String, List<CaseResult>>> byKey = new LinkedHashMap<>();
        cases.stream().filter(c -> c.ok() && c.spec().rate() != null)
                .sorted(Comparator.comparingInt(CaseResult::ioOrder))
                .forEach(c -> byKey.computeIfAbsent(c.curveKey(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(c.ioLabel(), k -> new ArrayList<>()).add(c));
        List<RateCurves> out = new ArrayList<>();
        for (Map<String, List<CaseResult>> curves : byKey.values()) {
            curves.values().forEach(l -> l.sort(Comparator.comparingDouble(c -> c.spec().rate())));
            String title = curves.values().iterator().next().getFirst().curveTitle();
            out.add(new RateCurves(out.size() + 1, title, curves));
        }
        return out;
    }

    /**
     * One sentence per IO profile: the highest rate up to which p99 stays under the bound (at that rate and at every
     * lower one measured), and the p99 at the next rate; or, when p99 is over the bound already at the lowest rate,
     * which rates were under and which over.
     */
    public List<String> sentences(double boundUs) {
        List<String> out = new ArrayList<>();
        curves.forEach((io, points) -> {
            int stable = -1;
            while (stable + 1 < points.size() && p99(points.get(stable + 1)) < boundUs) {
                stable++;
            }
            String head = title + " / " + io + ": ";
            if (stable < 0) {
                List<String> under = points.stream().filter(c -> p99(c) < boundUs).map(RateCurves::rate).toList();
                out.add(head + String.format(Locale.ROOT, "p99 is at or above %s µs already at the lowest rate "
                                + "(%s messages/s: %s µs)", Format.micros(boundUs), rate(points.getFirst()),
                        Format.micros(p99(points.getFirst())))
                        + (under.isEmpty() ? ", and at every rate measured." : "; it is under the bound at "
                        + String.join(", ", under) + " messages/s, so no rate keeps it under from the lowest up."));
                return;
            }
            CaseResult best = points.get(stable);
            String s = head + String.format(Locale.ROOT, "p99 stays under %s µs up to %s messages/s (%s round "
                            + "trips/s achieved, p99 %s µs)", Format.micros(boundUs), rate(best),
                    Format.count(best.summary().roundTripsPerSecond().median()), Format.micros(p99(best)));
            if (stable + 1 < points.size()) {
                CaseResult next = points.get(stable + 1);
                s += String.format(Locale.ROOT, "; at %s messages/s it is %s µs", rate(next),
                        Format.micros(p99(next)));
            }
            out.add(s + ".");
        });
        return out;
    }

    private static double p99(CaseResult c) {
        return c.summary().latency().p99Us().median();
    }

    private static String rate(CaseResult c) {
        return Format.count(c.spec().rate());
    }
}
