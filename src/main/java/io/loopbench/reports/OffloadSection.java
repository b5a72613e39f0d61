package io.loopbench.reports;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.Stat;
import io.loopbench.engine.Summary;
import io.loopbench.engine.offload.OffloadUse;
import io.loopbench.engine.spec.Offload;

import java.util.List;
import java.util.Objects;
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
                + "virtual thread per message. Medians over repetitions, throughput with [min, max]. Busy at peak: "
                + "the most messages in work at once; queue peak: the most hand-offs waiting for an offload thread "
                + "(read batches on tcp and tcps, messages on the others); both the largest over the repetitions. In "
                + "flight: round trips/s × mean RTT (Little's law), which a closed load keeps at clients × window.\n\n");
        for (CaseGroups g : offloaded) {
            long inFlight = (long) g.cases().getFirst().spec().clients() * g.cases().getFirst().spec().window();
            md.append("### ").append(g.title()).append("\n\n");
            md.append("Clients × window: ").append(inFlight).append(" messages in flight.\n\n");
            md.append("| IO profile | Round trips/s median [min, max] | p50 / µs | p99 / µs | Busy at peak | Queue peak "
                    + "| In flight (Little) |\n");
            md.append("| --- | --- | --- | --- | --- | --- | --- |\n");
            for (CaseResult c : g.cases()) {
                md.append("| ").append(c.ioLabel()).append(" | ");
                Summary r = c.summary();
                if (r == null) {
                    md.append("FAILED: ").append(Format.text(c.error())).append(" | | | | | |\n");
                    continue;
                }
                List<RepetitionResult> ok = c.repetitions().stream().filter(RepetitionResult::ok).toList();
                md.append(Format.count(r.roundTripsPerSecond().median())).append(" [")
                        .append(Format.count(r.roundTripsPerSecond().min())).append(", ")
                        .append(Format.count(r.roundTripsPerSecond().max())).append("] | ")
                        .append(Format.micros(r.latency().p50Us().median())).append(" | ")
                        .append(Format.micros(r.latency().p99Us().median())).append(" | ")
                        .append(peak(ok, OffloadUse::busyPeak)).append(" | ")
                        .append(peak(ok, OffloadUse::queuePeak)).append(" | ")
                        .append(ok.isEmpty() ? "n/a" : Format.oneDecimal(Stat.of(ok.stream()
                                .map(rep -> rep.throughput().roundTripsPerSecond() * rep.rtt().latency().meanUs()
                                        / 1e6).toList()).median()))
                        .append(" |\n");
            }
            md.append('\n');
        }
    }

    /** The largest of a figure over the repetitions that recorded it; "n/a" where none did. */
    private static String peak(List<RepetitionResult> reps, ToIntFunction<OffloadUse> figure) {
        return reps.stream().map(r -> r.resources().offloadUse()).filter(Objects::nonNull).mapToInt(figure).max()
                .stream().mapToObj(String::valueOf).findFirst().orElse("n/a");
    }
}
