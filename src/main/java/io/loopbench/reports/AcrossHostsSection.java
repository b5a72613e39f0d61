package io.loopbench.reports;

import io.loopbench.cluster.AgentShare;
import io.loopbench.cluster.StartReport;
import io.loopbench.runs.HostsRepetition;

import java.util.Locale;
import java.util.stream.Collectors;

/** A report's section on runs across hosts: what each agent did in each repetition. Stateless. */
final class AcrossHostsSection {

    private AcrossHostsSection() {
    }

    /**
     * Runs across hosts: per case (a matrix's, with its agent group) and repetition, what each agent did and how
     * simultaneous the measured start was.
     */
    static void write(StringBuilder md, ReportSource s) {
        if (s.acrossHosts().isEmpty()) {
            return;
        }
        md.append("## Across hosts\n\n");
        md.append("Each repetition ran on agents: one ran the echo server, the others (or it too) ran clients, "
                + "warmed up apart and released into the measured phase at one instant. The repetition's figures "
                + "above merge every agent's counters and RTT histogram exactly; each RTT was timed on its own "
                + "client's clock. \"Start late\" is when an agent's clients began their measured phase, after the "
                + "instant, on the coordinator's timeline through its clock offset; the skews are the spread of those "
                + "starts and of the phases' stops. CPU is the agent's process's over its measured phase (the "
                + "server's agent alone: from the start instant to the parts' collection); peak RSS its process's "
                + "so far.\n\n");
        boolean matrix = s.kind().equals("matrix");
        for (CaseHosts c : s.acrossHosts()) {
            if (matrix) {
                md.append("### Case ").append(c.caseNumber()).append(" — agent group ").append(c.agentGroup())
                        .append(": server ").append(Format.text(c.placement().server())).append(", clients ")
                        .append(Format.text(c.placement().clients().stream()
                                .map(a -> a.agent() + " × " + a.clients()).collect(Collectors.joining(", "))))
                        .append("\n\n");
                if (c.repetitions().isEmpty()) {
                    md.append("No repetition finished.\n\n");
                }
            }
            for (HostsRepetition h : c.repetitions()) {
                agentTable(md, h, matrix ? "#### " : "### ");
            }
        }
    }

    /** One repetition's per-agent table under a heading of that level. */
    private static void agentTable(StringBuilder md, HostsRepetition h, String heading) {
        md.append(heading).append("Repetition ").append(h.repetition()).append("\n\n");
        StartReport s = h.start();
        if (s != null) {
            // results stored before the agents sent their phases' spans have the barrier's releases only
            md.append(s.fromPhases() ? "Measured start skew: " : "Start barrier skew: ")
                    .append(Format.micros(s.skewNanos() / 1e3)).append(" µs (± ")
                    .append(Format.micros(s.skewUncertaintyNanos() / 1e3)).append(" µs)");
            if (s.fromPhases()) {
                md.append("; stop skew ").append(Format.micros(s.stopSkewNanos() / 1e3)).append(" µs; every client "
                        + "agent in its measured phase together for ")
                        .append(String.format(Locale.ROOT, "%.3f s", s.overlapNanos() / 1e9));
            }
            md.append(".\n\n");
        }
        if (h.agents().isEmpty()) {
            md.append("Failed before its measured phase; see the repetition's error.\n\n");
            return;
        }
        md.append("| Agent | Role | Clients | Messages | Round trips/s | p99 / µs | Start late / µs | Error "
                + "| CPU / % | Peak RSS / MiB |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (AgentShare a : h.agents()) {
            md.append("| ").append(Format.text(a.member())).append(" | ")
                    .append(a.server() ? (a.clients() > 0 ? "server, clients" : "server") : "clients")
                    .append(" | ").append(a.clients()).append(" | ")
                    .append(a.messages() == null ? "" : Format.count(a.messages())).append(" | ")
                    .append(a.roundTripsPerSecond() == null ? "" : Format.count(a.roundTripsPerSecond()))
                    .append(" | ").append(a.p99Us() == null ? "" : Format.micros(a.p99Us())).append(" | ")
                    .append(a.startLateNanos() == null ? "" : Format.micros(a.startLateNanos() / 1e3))
                    .append(" | ").append(a.error() == null ? "" : Format.text(a.error())).append(" | ")
                    .append(a.cpuPercent() == null ? "" : Format.oneDecimal(a.cpuPercent())).append(" | ")
                    .append(a.peakRssBytes() == null ? "" : Format.mib(a.peakRssBytes())).append(" |\n");
        }
        md.append('\n');
    }
}
