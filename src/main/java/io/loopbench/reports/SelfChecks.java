package io.loopbench.reports;

import io.loopbench.engine.ClientPopulations;
import io.loopbench.engine.Fairness;
import io.loopbench.engine.OpenLoad;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.StampGap;
import io.loopbench.engine.Stat;
import io.loopbench.engine.WarmupResult;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.spec.LoadModel;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.spec.WindowMode;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A case group's self-checks in the report: per case whether the measured phases were JIT-quiet, how fair the
 * clients were served, the window fill, the warm-up that actually ran and why it stopped, and with open load the sends'
 * lateness and drops; then every warning, every note and every failed repetition with its reason. A figure a record lacks (it was
 * stored before the engine measured it) reads "not recorded" rather than passing for a clean check. Stateless.
 */
final class SelfChecks {

    static final String NOT_RECORDED = "not recorded";

    private SelfChecks() {
    }

    static void render(StringBuilder md, CaseGroups g) {
        boolean open = g.cases().getFirst().spec().load() == LoadModel.OPEN;
        md.append("Self-checks of the measured phases (see \"Metric definitions\"):\n\n");
        md.append("| IO model | JIT | Fairness: lowest Jain's index (its echoes per client) | Window fill ratio "
                + "median [min, max] | Stamp gap p50 / p99, worst repetition | Warm-up |")
                .append(open ? " Open load, worst repetition |" : "").append('\n');
        md.append("| --- | --- | --- | --- | --- | --- |").append(open ? " --- |" : "").append('\n');
        for (CaseResult c : g.cases()) {
            md.append("| ").append(c.ioWords()).append(" | ");
            if (!c.ok()) {
                md.append("FAILED, see below | | | | |").append(open ? " |" : "").append('\n');
                continue;
            }
            md.append(jit(c)).append(" | ").append(fairness(c)).append(" | ")
                    .append(windowFill(c)).append(" | ").append(stampGap(c)).append(" | ").append(warmup(c)).append(" |");
            if (open) {
                md.append(' ').append(openLoad(c)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        list(md, "Warnings (the figures of these repetitions are doubtful)",
                g.cases().stream().flatMap(c -> c.warnings().stream().map(w -> c.ioWords() + ", " + w)).toList());
        list(md, "Notes (they do not make the figures doubtful)",
                g.cases().stream().flatMap(c -> c.notes().stream().map(n -> c.ioWords() + ", " + n)).toList());
        list(md, "Failed repetitions (their case shows no figures)",
                g.cases().stream().flatMap(c -> c.failures().stream().map(f -> c.ioWords() + ", " + f)).toList());
    }

    private static void list(StringBuilder md, String title, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        md.append(title).append(":\n\n");
        items.forEach(i -> md.append("- ").append(Format.text(i)).append('\n'));
        md.append('\n');
    }

    /** "3 of 3 quiet", or "2 of 3 not quiet: repetition 1: 14 compilations (3.2 ms), 1 deoptimization; …". */
    static String jit(CaseResult c) {
        List<RepetitionResult> reps = c.repetitions();
        if (reps.isEmpty() || reps.stream().anyMatch(r -> r.jvm().jit() == null)) {
            return NOT_RECORDED;
        }
        List<RepetitionResult> noisy = reps.stream().filter(r -> !r.jvm().jit().quiet()).toList();
        if (noisy.isEmpty()) {
            return reps.size() + " of " + reps.size() + " quiet";
        }
        return noisy.size() + " of " + reps.size() + " not quiet: " + noisy.stream()
                .map(r -> "repetition " + r.repetition() + ": " + words(r.jvm().jit()))
                .collect(Collectors.joining("; "));
    }

    /** Why a phase was not quiet by the measured-path rule; a record stored before it: its counts in the JVM. */
    private static String words(JitActivity jit) {
        return jit.pathCompilations() != null ? jit.reasons() : String.format(Locale.ROOT,
                "%,d compilation%s (%.1f ms), %,d deoptimization%s", jit.compilations(),
                jit.compilations() == 1 ? "" : "s", jit.compileMillis(), jit.deoptimizations(),
                jit.deoptimizations() == 1 ? "" : "s");
    }

    /**
     * "0.998 (1,020–1,090)": the least fair repetition's Jain's index, and the fewest and most echoes of any one of
     * its clients; where its layout split the clients by thread, each group's echoes per client (and p99, where
     * recorded) apart: "0.800 (400–1,600; same thread as their server 1,500 per client (2, p99 150.00 µs), other 500
     * (2, p99 900.00 µs))".
     */
    static String fairness(CaseResult c) {
        List<RepetitionResult> reps = c.repetitions();
        if (reps.isEmpty() || reps.stream().anyMatch(r -> r.checks().fairness() == null)) {
            return NOT_RECORDED;
        }
        Fairness worst = reps.stream().map(rep -> rep.checks().fairness())
                .min(Comparator.comparingDouble(Fairness::jainIndex)).orElseThrow();
        ClientPopulations p = worst.populations();
        String groups = p == null ? "" : String.format(Locale.ROOT, "; same thread as their server %s per client "
                        + "(%s), other %s (%s)", Format.count(Math.round(p.sameThread().perClient())),
                group(p.sameThread()), Format.count(Math.round(p.otherThread().perClient())), group(p.otherThread()));
        return String.format(Locale.ROOT, "%.3f (%s–%s%s)", worst.jainIndex(), Format.count(worst.minMessages()),
                Format.count(worst.maxMessages()), groups);
    }

    /** "2" clients, or "2, p99 150.00 µs" where the group's p99 was recorded. */
    private static String group(ClientPopulations.Population g) {
        return g.clients() + (g.p99Us() == null ? "" : ", p99 " + Format.micros(g.p99Us()) + " µs");
    }

    /** "1.002 [0.998, 1.004]"; "n/a" where the check does not apply. */
    static String windowFill(CaseResult c) {
        Stat ratio = c.summary().windowFillRatio();
        if (ratio != null) {
            return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", ratio.median(), ratio.min(), ratio.max());
        }
        if (c.spec().load() == LoadModel.OPEN) {
            return "n/a (open load)";
        }
        return c.spec().windowMode() == WindowMode.BATCH && c.spec().window() > 1 ? "n/a (batch RTT)" : NOT_RECORDED;
    }

    /** "0.8 / 2.9 µs (1 % of RTT p50)", of the repetition whose median gap is the largest share of its RTT. */
    static String stampGap(CaseResult c) {
        StampGap worst = StampGap.worst(c.repetitions().stream().map(rep -> rep.checks().stampGap()).toList());
        if (worst == null) {
            return NOT_RECORDED;
        }
        return String.format(Locale.ROOT, "%.1f / %.1f µs (%.0f %% of RTT p50)", worst.p50Us(), worst.p99Us(),
                worst.share() * 100);
    }

    /**
     * The warm-up the case asked for: "none", "fixed 1.0 s", "auto 1.0 … 10.0 s". A record stored before warm-up
     * modes existed (its warm-ups name no mode) gives only the length: its spec reads back with today's default mode,
     * which is not what ran.
     */
    static String warmupSpecified(CaseResult c) {
        RunSpec s = c.spec();
        if (s.warmupSeconds() == 0) {
            return "none";
        }
        if (c.repetitions().stream().map(rep -> rep.checks().warmup()).anyMatch(w -> w != null && w.mode() == null)) {
            return s.warmupSeconds() + " s, mode " + NOT_RECORDED;
        }
        return s.warmupMode() == WarmupMode.FIXED ? "fixed " + s.warmupSeconds() + " s"
                : "auto " + s.warmupSeconds() + " … " + s.warmupMaxSeconds() + " s";
    }

    /**
     * "auto: 2.40 s [2.20, 10.00], stopped because steady in 2, cap in 1", "fixed: 1.00 s [1.00, 1.00], stopped
     * because time in 3", "none"; Markdown, why a warm-up stopped (a stored word) escaped.
     */
    static String warmup(CaseResult c) {
        if (c.spec().warmupSeconds() == 0) {
            return "none";
        }
        List<WarmupResult> w = c.repetitions().stream().map(rep -> rep.checks().warmup()).filter(Objects::nonNull)
                .toList();
        if (w.isEmpty()) {
            return NOT_RECORDED;
        }
        Stat s = Stat.of(w.stream().map(WarmupResult::elapsedSeconds).toList());
        String length = String.format(Locale.ROOT, "%s%.2f s [%.2f, %.2f]",
                w.getFirst().mode() == null ? "" : w.getFirst().mode().label() + ": ", s.median(), s.min(), s.max());
        if (w.stream().anyMatch(x -> x.stoppedBecause() == null)) {
            return length + ", why it stopped " + NOT_RECORDED;
        }
        Map<String, Integer> why = new LinkedHashMap<>();
        w.forEach(x -> why.merge(x.stoppedBecause(), 1, Integer::sum));
        return length + ", stopped because " + why.entrySet().stream()
                .map(e -> Format.text(e.getKey()) + " in " + e.getValue()).collect(Collectors.joining(", "));
    }

    /** "dropped 0.00 %, late 0.12 %, send lag p50 / p99 3.10 / 25.00 µs": each the worst repetition's. */
    static String openLoad(CaseResult c) {
        List<OpenLoad> o = c.repetitions().stream().map(RepetitionResult::openLoad).toList();
        if (o.isEmpty() || o.contains(null)) {
            return NOT_RECORDED;
        }
        String lag = o.stream().anyMatch(x -> x.sendLag() == null) ? "send lag " + NOT_RECORDED
                : "send lag p50 / p99 " + Format.micros(o.stream().mapToDouble(x -> x.sendLag().p50Us()).max()
                .orElseThrow()) + " / " + Format.micros(o.stream().mapToDouble(x -> x.sendLag().p99Us()).max()
                .orElseThrow()) + " µs";
        return "dropped " + Format.percent(o.stream().mapToDouble(OpenLoad::droppedFraction).max().orElseThrow())
                + ", late " + Format.percent(o.stream().mapToDouble(x -> x.intendedMessages() == 0 ? 0
                : (double) x.lateMessages() / x.intendedMessages()).max().orElseThrow()) + ", " + lag
                + clientP99s(o);
    }

    /** ", client p99s 0.41–0.97 ms": the widest spread of any repetition; empty in records stored before it. */
    private static String clientP99s(List<OpenLoad> o) {
        return o.stream().map(OpenLoad::clientSpread).filter(java.util.Objects::nonNull)
                .max(Comparator.comparingDouble(s -> s.maxP99Us() / Math.max(s.minP99Us(), 1e-9)))
                .map(s -> ", client p99s " + Format.micros(s.minP99Us()) + "–" + Format.micros(s.maxP99Us()) + " µs")
                .orElse("");
    }
}
