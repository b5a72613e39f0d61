package io.loopbench.reports;

import io.loopbench.engine.OpenLoad;
import io.loopbench.verdicts.UnderBound;
import io.loopbench.verdicts.VerdictRule;
import io.loopbench.verdicts.Verdicts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Open-load rate sweeps: the succeeded cases that differ only by IO profile and rate, one curve per IO profile of
 * p99 (from the intended send time) against the throughput achieved, and for each IO profile the highest rate under
 * the p99 bound: the highest rate at which, and at every lower rate measured, p99 is established under the bound
 * ({@link Verdicts#under}: one-sided, at the rule's alpha; the rates tested from the lowest up and stopped at the
 * first that fails, so that the chance of naming a rate wrongly stays at alpha) and the load was delivered — in
 * every repetition under {@link OpenLoad#MAX_DROPPED_FRACTION} of the intended messages dropped and at least
 * {@link OpenLoad#MIN_ACHIEVED_FRACTION} of the rate achieved. A p99 under the bound means nothing at a rate the
 * system did not carry. Stateless.
 *
 * @param index  1-based, used in chart names ({@code rate-1.svg})
 * @param title  what the curves share
 * @param curves per IO profile, its cases from the lowest rate to the highest
 */
public record RateCurves(int index, String title, Map<String, List<CaseResult>> curves) {

    public static List<RateCurves> of(List<CaseResult> cases) {
        Map<String, Map<String, List<CaseResult>>> byKey = new LinkedHashMap<>();
        cases.stream().filter(c -> c.ok() && c.spec().rate() != null)
                .sorted(Comparator.comparingLong(CaseResult::ioOrder))
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
    public List<String> sentences(double boundUs, VerdictRule rule) {
        List<String> out = new ArrayList<>();
        curves.forEach((io, points) -> {
            int highest = -1;
            while (highest + 1 < points.size() && exclusions(points.get(highest + 1), boundUs, rule).isEmpty()) {
                highest++;
            }
            String head = title + " / " + io + ": ";
            String bound = "the p99 bound of " + Format.micros(boundUs) + " µs";
            if (highest < 0) {
                List<String> alone = points.stream().filter(c -> exclusions(c, boundUs, rule).isEmpty())
                        .map(RateCurves::rate).toList();
                out.add(head + "no highest rate under " + bound + ": the lowest rate, " + rate(points.getFirst())
                        + " messages/s, is excluded " + why(points.getFirst(), boundUs, rule) + (alone.isEmpty()
                        ? ", and so is every rate measured."
                        : "; " + String.join(", ", alone) + " messages/s would qualify alone, but not from the "
                        + "lowest rate up."));
                return;
            }
            CaseResult best = points.get(highest);
            String s = head + "the highest rate under " + bound + " is " + rate(best) + String.format(Locale.ROOT,
                    " messages/s (%s round trips/s achieved, p99 %s µs, under the bound at %s, %s dropped)",
                    Format.count(best.summary().roundTripsPerSecond().median()), Format.micros(p99(best)),
                    under(best, boundUs, rule).words(), Format.percent(worstDropped(best)));
            if (highest + 1 < points.size()) {
                CaseResult next = points.get(highest + 1);
                s += "; " + rate(next) + " messages/s is excluded " + why(next, boundUs, rule);
            }
            out.add(s + ".");
        });
        return out;
    }

    /** "(p99 5,000.00 µs is at or above the bound; 0.50 % of the intended messages were dropped, …)". */
    private static String why(CaseResult c, double boundUs, VerdictRule rule) {
        return "(" + String.join("; ", exclusions(c, boundUs, rule)) + ")";
    }

    /** Why a rate cannot be named as under the p99 bound; empty when it can. */
    static List<String> exclusions(CaseResult c, double boundUs, VerdictRule rule) {
        List<String> why = new ArrayList<>();
        UnderBound under = under(c, boundUs, rule);
        if (p99(c) >= boundUs) {
            why.add("p99 " + Format.micros(p99(c)) + " µs is at or above the bound");
        } else if (!under.established()) {
            why.add("p99 " + Format.micros(p99(c)) + " µs is not established under the bound (" + under.words()
                    + ")");
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

    /** Whether the case's repetitions' p99s are established under the bound (repetitions without latency left out). */
    private static UnderBound under(CaseResult c, double boundUs, VerdictRule rule) {
        return Verdicts.under(c.repetitions().stream().filter(r -> r.ok() && r.rtt().latency() != null)
                .mapToDouble(r -> r.rtt().latency().p99Us()).toArray(), boundUs, rule);
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
