package io.loopbench.recommendations;

import io.loopbench.engine.Stat;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.race.Race;
import io.loopbench.race.Racer;
import io.loopbench.race.RecommendationSpec;
import io.loopbench.reports.Format;

import java.util.Locale;

/**
 * A recommendation as Markdown: the answer, every candidate's figures and fate, and the method with its error rate.
 * Text from a spec or a failure is escaped ({@link Format#text}) so that it cannot break the table. Stateless.
 */
final class RecommendationReport {

    private RecommendationReport() {
    }

    /** The report of {@code race} standing at {@code verdict}, with the wall time it took (null while unknown). */
    static String markdown(Racer.Prepared race, Race.Verdict verdict, Double elapsedSeconds) {
        RecommendationSpec spec = race.spec();
        StringBuilder md = new StringBuilder();
        md.append("# Recommendation: ").append(Format.text(load(spec.load()))).append("\n\n");
        md.append("**").append(verdict.outcome().label()).append("** — ").append(Format.text(verdict.answer()))
                .append("\n\n");
        if (verdict.outcome() == Race.Outcome.EQUIVALENT) {
            md.append("A tie is an answer: the candidates left differ by less than the minimum effect (")
                    .append(percent(spec.minimumEffect())).append(") on ").append(spec.metric().words())
                    .append(", so the one that costs least CPU per round trip (then fewer threads) is named.\n\n");
        }
        md.append("| Candidate | Status | Repetitions (clean) | Round trips/s | p99 µs | CPU µs / round trip "
                + "| Peak RSS MiB | Why |\n|---|---|---:|---:|---:|---:|---:|---|\n");
        for (Race.Entry e : verdict.candidates()) {
            md.append("| ").append(Format.text(e.label())).append(" | ").append(e.status().label()).append(" | ")
                    .append(e.repetitions()).append(" (").append(e.clean()).append(") | ")
                    .append(stat(e.roundTripsPerSecond(), "%,.0f")).append(" | ").append(stat(e.p99Us(), "%,.1f"))
                    .append(" | ").append(value(e.cpuUsPerRoundTrip(), "%.2f")).append(" | ")
                    .append(value(e.peakRssMiB(), "%.0f")).append(" | ")
                    .append(e.reason() == null ? "" : Format.text(e.reason())).append(" |\n");
        }
        md.append("\nFigures: median (min–max) over each candidate's clean repetitions (passed, no warning); a "
                + "repetition with a warning is run again once within its round; one still warned is left out of "
                + "every comparison, with its round's pairs.\n\n");
        md.append("## Method\n\n");
        md.append(String.format(Locale.ROOT, "- Ranked by %s (%s load); budget %.0f s", spec.metric().words(),
                spec.load().load() == LoadModel.OPEN ? "open" : "closed", spec.budgetSeconds()));
        if (elapsedSeconds != null) {
            md.append(String.format(Locale.ROOT, ", %.0f s used", elapsedSeconds));
        }
        md.append(String.format(Locale.ROOT, "; %d round%s run of at most %d", verdict.rounds(),
                verdict.rounds() == 1 ? "" : "s", race.plan().maxRounds()));
        if (verdict.decidedAtRound() != null && elapsedSeconds != null) {
            md.append(String.format(Locale.ROOT, "; decided after round %d, so stopping then saved %.0f s of the "
                    + "budget", verdict.decidedAtRound(), Math.max(0, spec.budgetSeconds() - elapsedSeconds)));
        }
        md.append(".\n");
        md.append("- Each round runs one repetition of every candidate still racing, each in a fresh JVM, in an order "
                + "rotated and reversed from round to round; repetitions of one round are paired.\n");
        md.append("- ").append(Format.text(race.plan().method())).append(": over the whole race, the chance of eliminating "
                + "a candidate that is not worse, or of calling candidates equivalent that are not, is at most ")
                .append(race.plan().alpha()).append(".\n");
        md.append("- A candidate is eliminated when established worse than another by at least the minimum effect (")
                .append(percent(spec.minimumEffect())).append("), when a repetition fails (unfair, errors, a stall)")
                .append(spec.p99BoundUs() == null ? "" : String.format(Locale.ROOT,
                        ", or when its p99 is established over %.0f µs", spec.p99BoundUs()))
                .append(".\n");
        md.append("- Intervals are at the tests' level (1 − the level of each test), so they match the decisions.\n");
        return md.toString();
    }

    private static String load(RunSpec l) {
        return String.format(Locale.ROOT, "%s %d B, %d clients × window %d%s%s", l.protocol().label(),
                l.payloadBytes(), l.clients(), l.window(), l.load() == LoadModel.OPEN
                        ? String.format(Locale.ROOT, " at %,.0f messages/s", l.rate()) : "",
                l.work() > 0 ? ", work " + l.work() : "");
    }

    private static String stat(Stat s, String format) {
        return s == null ? "–" : String.format(Locale.ROOT, format + " (" + format + "–" + format + ")", s.median(),
                s.min(), s.max());
    }

    private static String value(Double v, String format) {
        return v == null ? "–" : String.format(Locale.ROOT, format, v);
    }

    private static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f %%", fraction * 100);
    }
}
