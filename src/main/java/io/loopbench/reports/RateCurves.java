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

    /** One sentence per IO profile: the highest rate whose p99 stayed under the bound, and what came after it. */
    public List<String> sentences(double boundUs) {
        List<String> out = new ArrayList<>();
        curves.forEach((io, points) -> {
            CaseResult best = null;
            CaseResult firstOver = null;
            for (CaseResult c : points) {
                if (c.summary().latency().p99Us().median() < boundUs) {
                    best = c;
                } else if (firstOver == null && best != null) {
                    firstOver = c;
                }
            }
            String head = title + " / " + io + ": ";
            if (best == null) {
                out.add(head + String.format(Locale.ROOT, "p99 was at or above %s µs at every rate measured "
                        + "(lowest: %,.0f messages/s, p99 %s µs).", Format.micros(boundUs),
                        points.getFirst().spec().rate(), Format.micros(points.getFirst().summary().latency().p99Us()
                                .median())));
                return;
            }
            String s = head + String.format(Locale.ROOT, "p99 stays under %s µs up to %,.0f messages/s (%s round "
                            + "trips/s achieved, p99 %s µs)", Format.micros(boundUs), best.spec().rate(),
                    Format.count(best.summary().roundTripsPerSecond().median()),
                    Format.micros(best.summary().latency().p99Us().median()));
            if (firstOver != null) {
                s += String.format(Locale.ROOT, "; at %,.0f messages/s it is %s µs", firstOver.spec().rate(),
                        Format.micros(firstOver.summary().latency().p99Us().median()));
            }
            out.add(s + ".");
        });
        return out;
    }
}
