package io.loopbench.reports;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.Stat;
import io.loopbench.engine.Summary;
import io.loopbench.engine.offload.OffloadUse;
import io.loopbench.engine.spec.Offload;

import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * The report's section on where the server's work runs: for each group whose cases offload, throughput and p99 against
 * the pool size of each offload kind, beside how many messages were in work at once, how many waited, and the messages
 * in flight by Little's law, which a closed load keeps at clients × window whatever the offload: a row far from it
 * measured something else than its load. Stateless.
 */
final class OffloadSection {

    private OffloadSection() {
    }

    static void write(StringBuilder md, List<CaseGroups> groups) {
        List<CaseGroups> offloaded = groups.stream()
                .filter(g -> g.cases().stream().anyMatch(c -> c.spec().offload() != Offload.LOOP)).toList();
        if (offloaded.isEmpty()) {
            return;
        }
        md.append("## Where the server's work runs\n\n");
        md.append("Each row is one IO profile with one offload: on the loop, an executor of so many threads, or a "
                + "virtual thread per message. Medians over repetitions, throughput with [min, max]. Busy: messages "
                + "in work at once, the threads the work kept busy, on average over the measured phase (median over "
                + "repetitions) / at the most (largest over repetitions); queued: hand-offs waiting for an offload "
                + "thread (read batches on tcp and tcps, messages on the others), the same way; a phase starts with "
                + "every client's window sent at once, which the peaks include. In flight: round trips/s × mean RTT "
                + "(Little's law), which a closed load keeps at clients × window.\n\n");
        for (CaseGroups g : offloaded) {
            long inFlight = (long) g.cases().getFirst().spec().clients() * g.cases().getFirst().spec().window();
            md.append("### ").append(g.title()).append("\n\n");
            md.append("Clients × window: ").append(inFlight).append(" messages in flight.\n\n");
            md.append("| IO profile | Round trips/s median [min, max] | p50 / µs | p99 / µs | Busy: mean / peak "
                    + "| Queued: mean / peak | In flight (Little) |\n");
            md.append("| --- | --- | --- | --- | --- | --- | --- |\n");
            for (CaseResult c : g.cases()) {
                md.append("| ").append(c.ioLabel()).append(" | ");
                Summary r = c.summary();
                if (r == null) {
                    md.append("FAILED: ").append(Format.text(c.error())).append(" | | | | | |\n");
                    continue;
                }
                List<RepetitionResult> ok = c.repetitions().stream().filter(RepetitionResult::ok).toList();
                md.append(Format.countRange(r.roundTripsPerSecond())).append(" | ")
                        .append(Format.micros(r.latency().p50Us().median())).append(" | ")
                        .append(Format.micros(r.latency().p99Us().median())).append(" | ")
                        .append(meanAndPeak(ok, OffloadUse::busyMean, OffloadUse::busyPeak)).append(" | ")
                        .append(meanAndPeak(ok, OffloadUse::queueMean, OffloadUse::queuePeak)).append(" | ")
                        .append(ok.isEmpty() ? "n/a" : Format.oneDecimal(Stat.of(ok.stream()
                                .map(rep -> rep.throughput().roundTripsPerSecond() * rep.rtt().latency().meanUs()
                                        / 1e6).toList()).median()))
                        .append(" |\n");
            }
            md.append('\n');
        }
    }

    /** "2.9 / 4": the median of a mean over the repetitions that recorded it, the largest peak; "n/a" where none did. */
    private static String meanAndPeak(List<RepetitionResult> reps, ToDoubleFunction<OffloadUse> mean,
                                      ToIntFunction<OffloadUse> peak) {
        List<OffloadUse> uses = reps.stream().map(r -> r.resources().offloadUse()).filter(Objects::nonNull).toList();
        if (uses.isEmpty()) {
            return "n/a";
        }
        return Format.oneDecimal(Stat.of(uses.stream().map(mean::applyAsDouble).toList()).median()) + " / "
                + uses.stream().mapToInt(peak).max().orElseThrow();
    }
}
