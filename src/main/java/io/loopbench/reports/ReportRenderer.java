package io.loopbench.reports;

import io.loopbench.engine.Fairness;
import io.loopbench.engine.OpenLoad;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.Summary;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.verdicts.VerdictRule;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Renders a report as Markdown — test conditions, computed key results, the matched comparison of executions,
 * charts, a table per case group, where the CPU time goes (when a case was profiled), the "choosing an IO model"
 * guidance, metric definitions, scope and caveats, raw data — and as HTML, which is the same Markdown rendered by
 * commonmark inside a page that reads in light and dark mode. Every figure comes from the source; nothing is written
 * by hand. Text that came from a request or a stored file is escaped where it is written ({@link Format#text}), so
 * that it shows as text. Stateless and thread-safe.
 */
public final class ReportRenderer {

    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    /**
     * The Markdown escapes what came from a request or a stored file; this is the second line: raw HTML is shown as
     * text, and a link or image whose URL has a scheme other than http, https or mailto gets an empty one.
     */
    private static final HtmlRenderer HTML = HtmlRenderer.builder().extensions(EXTENSIONS).escapeHtml(true)
            .sanitizeUrls(true).build();

    private ReportRenderer() {
    }

    /**
     * Each passed case over time: its median repetition's timeline (the others one link away) and its repetitions'
     * percentile spectra, pooled too; a case without timelines or histograms (stored before them) says so.
     */
    private static void overTime(StringBuilder md, ReportSource s, String chartBase) {
        md.append("## Over time and by percentile\n\n");
        md.append("Each case's median repetition (by throughput) over time, in intervals: throughput and p99, the "
                + "start of the measured phase, and what the process did in each interval (GC pauses, JIT "
                + "compilations, deoptimizations; under open load, late or dropped messages). Then the case's "
                + "latency by percentile, each repetition's and pooled, on a scale where each further nine of the "
                + "tail takes the same width.\n\n");
        if (s.cases().stream().noneMatch(c -> c.medianTimelineRepetition().isPresent()
                || !Spectra.of(c).series().isEmpty())) {
            md.append("Not recorded: these repetitions were stored before timelines and histograms were.\n\n");
            return;
        }
        for (int c = 1; c <= s.cases().size(); c++) {
            CaseResult kase = s.cases().get(c - 1);
            int caseIndex = c;
            if (!kase.ok()) {
                continue;
            }
            String title = kase.groupTitle() + " / " + kase.ioLabel();
            md.append("### ").append(title).append("\n\n");
            Optional<RepetitionResult> median = kase.medianTimelineRepetition();
            if (median.isEmpty()) {
                md.append("Timeline not recorded (stored before timelines existed).\n\n");
            } else {
                int m = median.get().repetition();
                md.append("![Repetition ").append(m).append(" over time, ").append(title).append("](")
                        .append(chartBase).append("timeline-").append(c).append('-').append(m).append(".svg)\n\n");
                List<String> others = kase.repetitions().stream()
                        .filter(r -> r.timeline() != null && r.repetition() != m)
                        .map(r -> "[repetition " + r.repetition() + "](" + chartBase + "timeline-" + caseIndex + "-"
                                + r.repetition() + ".svg)").toList();
                md.append("Repetition ").append(m).append(" is the median by throughput")
                        .append(others.isEmpty() ? "." : "; the others: " + String.join(", ", others) + ".")
                        .append("\n\n");
            }
            if (Spectra.of(kase).series().isEmpty()) {
                md.append("Latency by percentile not available (histograms not stored).\n\n");
            } else {
                md.append("![Latency by percentile, ").append(title).append("](").append(chartBase)
                        .append("spectrum-").append(c).append(".svg)\n\n");
            }
        }
    }

    /**
     * @param chartBase prefix of chart links, e.g. {@code "charts/"} next to the report's URL
     * @param rule      the rule the verdicts follow
     */
    public static String markdown(ReportSource s, String chartBase, VerdictRule rule) {
        StringBuilder md = new StringBuilder();
        List<CaseGroups> groups = CaseGroups.of(s.cases());
        md.append("# loopbench report: ").append(s.kind()).append(' ').append(Format.text(s.id())).append("\n\n");
        md.append("Status **").append(s.status()).append("**; accepted ").append(s.createdAt())
                .append(s.finishedAt() == null ? "" : "; finished " + s.finishedAt()).append(". ")
                .append(s.cases().size()).append(s.cases().size() == 1 ? " case" : " cases").append(", ")
                .append(s.cases().stream().filter(CaseResult::ok).count()).append(" succeeded.\n\n");

        ConditionsSection.write(md, s);

        md.append("## Key results\n\n");
        List<String> keys = groups.stream().map(g -> KeyResults.sentence(g, rule)).flatMap(Optional::stream).toList();
        if (keys.isEmpty()) {
            md.append("No case succeeded, so there is no result to state.\n\n");
        } else {
            keys.forEach(k -> md.append("- ").append(k).append('\n'));
            md.append("\nThe highest median applies only to the stated load; complete results appear below.\n\n");
        }

        md.append("Verdicts: ").append(verdictRule(rule)).append("\n\n");
        ComparisonSections.executionsMatched(md, s, rule);
        ComparisonSections.protocolCosts(md, s, rule);
        OffloadSection.write(md, groups);

        md.append("## Charts\n\n");
        md.append("Bars are medians over repetitions; whiskers are min and max, not confidence intervals.\n\n");
        for (CaseGroups g : groups) {
            if (g.succeeded().isEmpty()) {
                continue;
            }
            md.append("### ").append(g.title()).append("\n\n")
                    .append("![Throughput, ").append(g.title()).append("](").append(chartBase).append("throughput-")
                    .append(g.index()).append(".svg)\n")
                    .append("![p99 round-trip time, ").append(g.title()).append("](").append(chartBase)
                    .append("p99-").append(g.index()).append(".svg)\n\n");
        }

        overTime(md, s, chartBase);

        List<RateCurves> curves = RateCurves.of(s.cases());
        if (!curves.isEmpty()) {
            md.append("## Latency versus rate\n\n");
            md.append("Open load: messages are sent at the rate whatever the replies, and RTT is measured from each "
                    + "message's intended send time, so a stall shows for every message it delays. Each point is "
                    + "one rate (medians over repetitions); the dashed line is the p99 bound, ")
                    .append(Format.micros(s.p99Bound())).append(" µs. An IO profile's highest rate under the p99 "
                            + "bound is the highest rate at which, and at every lower rate measured, p99 stays under "
                            + "the bound and the load was delivered: in every repetition under ")
                    .append(Format.percent(OpenLoad.MAX_DROPPED_FRACTION)).append(" of the intended messages "
                            + "dropped and at least ").append(Format.percent(OpenLoad.MIN_ACHIEVED_FRACTION))
                    .append(" of the rate achieved in round trips/s. p99 is under the bound where a one-sided "
                            + "Wilcoxon signed-rank test on the repetitions' p99s rejects \"at or above the bound\" at ")
                    .append(Format.percent(rule.alpha())).append(" (5 repetitions are the fewest that can); the "
                            + "rates are tested from the lowest up and the first that fails stops the sweep, so the "
                            + "chance of naming a rate wrongly stays at ").append(Format.percent(rule.alpha()))
                    .append(" (a fixed-sequence test). The first rate that misses is named with why.\n\n");
            for (RateCurves c : curves) {
                md.append("### ").append(c.title()).append("\n\n");
                c.sentences(s.p99Bound(), rule).forEach(x -> md.append("- ").append(x).append('\n'));
                md.append("\n![p99 against throughput, ").append(c.title()).append("](").append(chartBase)
                        .append("rate-").append(c.index()).append(".svg)\n\n");
            }
        }

        md.append("## Detailed results\n\n");
        md.append("Tables show medians over repetitions; throughput brackets show [min, max], not confidence "
                + "intervals. Latencies are medians of per-repetition percentiles (arknet's statistic); \"p99 "
                + "pooled\" is the 99th percentile of every repetition's observations merged into one histogram. "
                + "Below each table, the self-checks of its cases.\n\n");
        int cpus = s.system().logicalCpus();
        for (Protocol p : Protocol.values()) {
            List<CaseGroups> ofProtocol = groups.stream()
                    .filter(g -> g.cases().getFirst().spec().protocol() == p).toList();
            if (ofProtocol.isEmpty()) {
                continue;
            }
            md.append("### ").append(p.label().toUpperCase(Locale.ROOT)).append("\n\n");
            for (CaseGroups g : ofProtocol) {
                md.append("#### ").append(g.title()).append("\n\n");
                md.append("| IO model | Round trips/s median [min, max] | MiB/s | p50 / µs | p95 / µs | p99 / µs "
                        + "| p99 pooled / µs | CPU / % | Machine share / % | Peak RSS / MiB |\n");
                md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
                for (CaseResult c : g.cases()) {
                    md.append("| ").append(c.ioWords()).append(" | ");
                    Summary r = c.summary();
                    if (r == null) {
                        md.append("FAILED: ").append(Format.text(c.error())).append(" | | | | | | | | |\n");
                        continue;
                    }
                    md.append(Format.countRange(r.roundTripsPerSecond())).append(" | ")
                            .append(Format.oneDecimal(r.payloadMibPerSecond().median())).append(" | ")
                            .append(lowerBound(c, 50)).append(Format.micros(r.latency().p50Us().median()))
                            .append(" | ").append(lowerBound(c, 95))
                            .append(Format.micros(r.latency().p95Us().median())).append(" | ")
                            .append(lowerBound(c, 99)).append(Format.micros(r.latency().p99Us().median()))
                            .append(" | ").append(r.pooledLatency() == null ? "n/a"
                                    : lowerBound(c, 99) + Format.micros(r.pooledLatency().p99Us()))
                            .append(" | ")
                            .append(Format.oneDecimal(r.cpuPercent().median())).append(" | ")
                            .append(Format.oneDecimal(r.cpuPercent().median() / cpus)).append(" | ")
                            .append(r.peakRssBytes() == null ? "n/a" : Format.mib(r.peakRssBytes().median()))
                            .append(" |\n");
                }
                md.append('\n');
                SelfChecks.render(md, g);
            }
        }

        AcrossHostsSection.write(md, s);
        ProfileSection.write(md, s, chartBase);

        md.append("""
                ## Choosing an IO model

                | Model | Workload | Tradeoff |
                | --- | --- | --- |
                | 1 loop group / 1 thread | Low concurrency, control services, light per-message work | One long handler delays every connection |
                | 1 loop group / several threads | Uneven connection activity that should use any free thread | Both ends of a connection may sit on different threads: each message then costs a cross-thread wake-up |
                | Several loops / 1 thread each | Partitioned sessions, tenants or a stable assignment of connections | A busy loop cannot borrow another loop's thread |

                ## Metric definitions

                - **Round trips/s**: validated echoes ÷ measured wall time, the drain after the deadline included.
                - **MiB/s**: 2 × payload × round trips ÷ time ÷ 2²⁰ (both directions, payload only; no headers or framing).
                - **Timestamps**: a message's send stamp is taken as the client writes it — a phase's first window just before each message is formatted; a refill at the echo's receive stamp, so before that echo's content check, the rest of its read batch and the flush; under open load when the pacer sends it (its intended time kept apart). Its bytes reach the transport at the end of the read batch: with netty at the batch's flush (which writes to the socket), with reactive when Reactor Netty's outbound sends it on the same loop, with virtual threads at the blocking socket write of the gathered batch (a stream) or of the datagram. The receive stamp is taken once per read batch as its handling begins (a stream's echoes of one read arrived together), per message for a datagram or a framed protocol's message. The stamp gap below measures what lies between a send stamp and its hand-over.
                - **p50 / p95 / p99**: round-trip time in µs from that send time to that receive time, queueing behind the rest of the window included (open load: from the message's intended send time); every observation is kept (HdrHistogram, 3 significant digits). With the batch window mode and window > 1 one observation is a whole batch.
                - **Median of percentiles and pooled**: a table's p50 / p95 / p99 is the median over repetitions of each repetition's own percentile (arknet's statistic). **p99 pooled** is the 99th percentile of every repetition's observations merged into one histogram (each repetition stores its histogram, so the merge is exact); where repetitions differ, it weighs each by its number of observations.
                - **Send lag and late** (open load): send lag is a message's actual send time minus its intended one, reported apart from the RTT. A message is late when it was sent more than 100 µs after its intended time, whatever the reason (a full window or the pacer itself), and dropped when it was never sent (the window and its backlog were full). A dropped message still counts in the corrected RTT, censored at the phase's end (it took at least that long), so the percentiles above the delivered share are lower bounds, shown "≥"; a repetition that drops over 0.1 % of its messages or delivers under 99 % of them is **overloaded**, a warning.
                - **CPU**: process CPU (user + system, all threads, both peers) ÷ wall time of the measured phase and drain; 100 % is one logical CPU. **Machine share** = CPU ÷ logical CPUs.
                """);
        if (ProfileSection.any(s)) {
            md.append(ProfileSection.definitions());
        }
        md.append("""
                - **Peak RSS**: the measuring process's peak resident memory (VmHWM); with forked isolation, one repetition's JVM.
                - **Errors**: content, order, unexpected, disconnect, lost (UDP), unfinished (TCP), send failures, exceptions, drain timeouts; any non-zero counter fails the repetition, and a case with a failed repetition shows no figures.
                - **Fairness**: validated echoes per client over the measured phase, their fewest and most, and Jain's index (Σx)² ÷ (n · Σx²): 1 when every client completed as many, 1/n when one client did everything. A repetition fails as **unfair** when a client completed under a tenth of the mean, and as **stalled** when one message took over a quarter of the measured phase; it warns as **uneven** when Jain's index is under 0.9 or the busiest client completed over twice the quietest's echoes (one throughput and one p99 then blend clients served unequally). Under open load every client sends at the same rate, so fairness is judged by each client's own corrected p99 (the slowest over three times the fastest, once every client has 1,000 observations) and share of dropped messages (one over 0.1 % and over twice another's).
                - **Window fill**: a closed sliding-window load keeps clients × window messages in flight, so by Little's law round trips/s × mean RTT ÷ (clients × window) must be 1; a repetition more than 5 % off carries a warning (a slot left empty, an echo not counted, a phase's time wrongly measured). A refill is stamped with the receive instant of the echo that freed its slot, so the ratio is 1 by construction while the window stays full: it checks the window and the counts, not where a stamp is taken. It does not apply to open load or to batch RTT.
                - **Stamp gap**: the time from a message's send stamp to the moment the client hands its bytes to the transport (the flush of its read batch: Netty's `flush`, the virtual thread's socket write of the gathered batch, the reactive client's send), per message, p50 and p99. It is the part of the RTT spent in the client before the message left: the check of the echo that freed its slot, the rest of that read batch, the message's formatting. A repetition whose gap p50 exceeds 10 % of its RTT p50 carries a warning: its stamps are not where the definitions say.
                - **JIT**: compilations installed and deoptimizations made during the measured phase (a compilation begun in the warm-up and installed in the phase counts), from the JVM's flight recorder (`jdk.Compilation`, `jdk.Deoptimization`); where the recorder's events could not be read, a note says the JIT activity is unknown in part. A measured phase is JIT-quiet unless code on the measured path (the engine's client, server, protocol and message code, Netty, Reactor, HdrHistogram, the JDK's NIO, networking and crypto) changed more than {pathChangesAllowed} times (deoptimizations and C2/OSR compilations together), or the compilers took over 2.5 % of the CPU the phase had (its wall time on every processor); the harness's and the flight recorder's own compilations count only in that share. A phase that is not quiet carries a warning.
                - **Warm-up**: `fixed` runs warmupSeconds; `auto` runs at least warmupSeconds, then until throughput is stable over consecutive short windows and the JIT quiet (stopped because `steady`), at most warmupMaxSeconds (stopped because `cap`, naming the criterion that held it back: a throughput still moving is a warning, a JIT still busy a note, since the measured phase's own JIT check then judges it). The JIT criterion is the measured phase's rule, applied to the last span of rounds (0.6 s), with at most {warmupPathChangesAllowed} changes of measured-path code where a phase may have {pathChangesAllowed}. The report gives the length that actually ran.
                - **Warnings and notes**: a warning says what makes a passed repetition's figures doubtful (not JIT-quiet, window not kept full, a stamp gap over 10 % of the RTT, warm-up capped while throughput still moved, uneven clients, an overloaded open load); a key result whose group has a case with warnings says that it is not established. A note says what a reader should know without doubting the figures (JIT activity unknown, warm-up capped while the JIT was busy).
                - **Verdicts**: a difference between two cases is a ratio with its interval and a decision: *established* (the whole interval of an anytime-valid confidence sequence excludes 1 at the stated error rate, divided over the comparisons of one question, surviving any one repetition left out, and the ratio changes by at least the minimum effect), *a difference under the minimum effect*, *no difference beyond* the minimum (the whole interval within it), *not established*, or *too few repetitions to decide* (under two a side). Cases of one matrix are matched by round, which cancels the machine's drift; two runs measured at different times are not, and are established only when the whole interval lies beyond how far separate runs drift on this machine.

                ## Scope and caveats

                - Loopback is not production: no NIC, driver, interrupts or wire, and client, server and the JVM's own threads compete for the same cores. These results rank configurations on this host; they do not predict cross-host capacity.
                - The latencies are closed-loop: a client waits for its window to free a slot, so a stall is recorded once, not for every message that would have been sent meanwhile (coordinated omission). They are not latency at a given request rate.
                - Batch RTT (batch window mode) is not message RTT.
                - Virtual threads pay two thread hand-offs per message that an event loop does not: a blocked read parks its virtual thread, the JDK's poller (a thread of its own) sees the socket readable and unparks it, and the carrier, asleep meanwhile, is woken to run it. A 1 client × window 1 round trip thus wakes threads four times — twice as often as netty with its two ends on two loops (shared 2), and four times as often as netty with both ends on one loop, which wakes none. loopbench measured this, not a defect of its own code: on one carrier the JDK's two poller modes differ by no more than the noise (docs/performance.md, "Execution styles").
                - UDP with datagramsPerRead above 1 reads batches with recvmmsg, which arknet does not (one datagram per call): compare such cases with arknet's only as such; most of UDP's cost is the kernel's per-datagram work, which batching does not remove.
                - Short runs, scheduling and garbage collection add variance: read the verdicts, not only the medians. JIT activity in the measured phase is not removed but measured, and flagged (see "JIT").

                """.replace("{pathChangesAllowed}", String.valueOf(JitActivity.PATH_CHANGES_ALLOWED))
                .replace("{warmupPathChangesAllowed}", String.valueOf(JitActivity.WARMUP_PATH_CHANGES_ALLOWED)));
        md.append("## Raw data\n\n- [All measured values (JSON)](").append(s.rawDataUrl()).append(")\n");
        return md.toString();
    }

    /**
     * "≥ " when a passed repetition of the case dropped messages under open load so that this percentile of its
     * corrected latency lies among the censored ones: then it is a lower bound; else "".
     */
    private static String lowerBound(CaseResult c, double percentile) {
        return c.repetitions().stream().anyMatch(x -> x.ok() && x.openLoad() != null
                && x.openLoad().lowerBoundsAbovePercentile() != null
                && x.openLoad().lowerBoundsAbovePercentile() < percentile) ? "≥ " : "";
    }

    /** The rule in words, as the report states it once before its verdicts. */
    static String verdictRule(VerdictRule rule) {
        return String.format(Locale.ROOT, "each difference is a ratio (candidate ÷ baseline) with its interval from "
                + "an anytime-valid confidence sequence on logarithms (over the log ratios of repetitions matched "
                + "by round, else over both sides' repetitions; its noise the machine's floor for the protocol, or "
                + "the data's spread where larger), at coverage 1 − %s ÷ the comparisons that answer one question "
                + "(Bonferroni); it is established when the whole interval excludes 1, surviving any one repetition "
                + "left out, and the ratio changes by at least %s (between runs measured at different times, when "
                + "it also clears the machine's drift between separate runs); \"no difference beyond %s\" when "
                + "the whole interval lies within that; too few repetitions below two a side.",
                Format.percentile(rule.alpha() * 100), Format.percentile(rule.minimumEffect() * 100),
                Format.percentile(rule.minimumEffect() * 100));
    }

    /** The report as an HTML page; it has an inline style sheet and no script. */
    public static String html(ReportSource s, String chartBase, VerdictRule rule) {
        String body = HTML.render(PARSER.parse(markdown(s, chartBase, rule)));
        return """
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="color-scheme" content="light dark">
                <title>loopbench report: %s %s</title>
                <style>
                body { font-family: system-ui, sans-serif; max-width: 80rem; margin: 1rem auto; padding: 0 1rem;
                       line-height: 1.45; color: CanvasText; background: Canvas; }
                table { border-collapse: collapse; margin: .5rem 0 1rem; }
                th, td { border: 1px solid color-mix(in srgb, CanvasText 25%%, transparent); padding: .25rem .5rem;
                         text-align: right; }
                th:first-child, td:first-child { text-align: left; }
                img { max-width: 100%%; height: auto; }
                code { font-size: .9em; }
                </style>
                </head>
                <body>
                <main>
                %s</main>
                </body>
                </html>
                """.formatted(escapeHtml(s.kind()), escapeHtml(s.id()), body);
    }

    /** Text for the page around the rendered report (its title): nothing in it can open a tag or end a value. */
    private static String escapeHtml(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
