package io.loopbench.reports;

import io.loopbench.engine.OpenLoad;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Open-load rate sweeps: the succeeded cases that differ only by IO profile and rate, one curve per IO profile of
 * p99 (from the intended send time) against the throughput achieved, and for each IO profile the highest rate under
 * the p99 bound: the highest rate at which, and at every lower rate measured, p99 stays under the bound and the load
 * was delivered — in every repetition under {@link OpenLoad#MAX_DROPPED_FRACTION} of the intended messages dropped
 * and at least {@link OpenLoad#MIN_ACHIEVED_FRACTION} of the rate achieved. A p99 under the bound means nothing at a
 * rate the system did not carry. Stateless.
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
     * One sentence per IO profile: its highest rate under the p99 bound, and why the next rate measured is excluded;
     * or, when the lowest rate is excluded already, why, and which rates would qualify on their own.
     */
    public List<String> sentences(double boundUs) {
        List<String> out = new ArrayList<>();
        curves.forEach((io, points) -> {
            int highest = -1;
            while (highest + 1 < points.size() && exclusions(points.get(highest + 1), boundUs).isEmpty()) {
                highest++;
            }
            String head = title + " / " + io + ": ";
            String bound = "the p99 bound of " + Format.micros(boundUs) + " µs";
            if (highest < 0) {
                List<String> alone = points.stream().filter(c -> exclusions(c, boundUs).isEmpty())
                        .map(RateCurves::rate).toList();
                out.add(head + "no highest rate under " + bound + ": the lowest rate, " + rate(points.getFirst())
                        + " messages/s, is excluded " + why(points.getFirst(), boundUs) + (alone.isEmpty()
                        ? ", and so is every rate measured."
                        : "; " + String.join(", ", alone) + " messages/s would qualify alone, but not from the "
                        + "lowest rate up."));
                return;
            }
            CaseResult best = points.get(highest);
            String s = head + "the highest rate under " + bound + " is " + rate(best) + String.format(Locale.ROOT,
                    " messages/s (%s round trips/s achieved, p99 %s µs, %s dropped)",
                    Format.count(best.summary().roundTripsPerSecond().median()), Format.micros(p99(best)),
                    Format.percent(worstDropped(best)));
            if (highest + 1 < points.size()) {
                CaseResult next = points.get(highest + 1);
                s += "; " + rate(next) + " messages/s is excluded " + why(next, boundUs);
            }
            out.add(s + ".");
        });
        return out;
    }

    /** "(p99 5,000.00 µs is at or above the bound; 0.50 % of the intended messages were dropped, …)". */
    private static String why(CaseResult c, double boundUs) {
        return "(" + String.join("; ", exclusions(c, boundUs)) + ")";
    }

    /** Why a rate cannot be named as under the p99 bound; empty when it can. */
    static List<String> exclusions(CaseResult c, double boundUs) {
        List<String> why = new ArrayList<>();
        if (p99(c) >= boundUs) {
            why.add("p99 " + Format.micros(p99(c)) + " µs is at or above the bound");
        }
        if (c.repetitions().isEmpty() || c.repetitions().stream().anyMatch(r -> r.openLoad() == null)) {
            why.add("its dropped messages were not recorded");
        } else if (worstDropped(c) >= OpenLoad.MAX_DROPPED_FRACTION) {
            why.add(Format.percent(worstDropped(c)) + " of the intended messages were dropped, under "
                    + Format.percent(OpenLoad.MAX_DROPPED_FRACTION) + " allowed");
        }
        double achieved = c.summary().roundTripsPerSecond().min() / c.spec().rate();
        if (achieved < OpenLoad.MIN_ACHIEVED_FRACTION) {
            why.add("only " + Format.percent(achieved) + " of the rate was achieved, at least "
                    + Format.percent(OpenLoad.MIN_ACHIEVED_FRACTION) + " needed");
        }
        return why;
    }

    /** Dropped ÷ intended messages of the case's worst repetition (0 when none recorded it). */
    private static double worstDropped(CaseResult c) {
        return c.repetitions().stream().filter(r -> r.openLoad() != null)
                .mapToDouble(r -> r.openLoad().droppedFraction()).max().orElse(0);
    }

    private static double p99(CaseResult c) {
        return c.summary().latency().p99Us().median();
    }

    private static String rate(CaseResult c) {
        return Format.count(c.spec().rate());
    }
}
