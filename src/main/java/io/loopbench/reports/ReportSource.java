package io.loopbench.reports;

import io.loopbench.engine.process.Environment;
import io.loopbench.engine.spec.Execution;
import io.loopbench.system.SystemInfo;

import java.time.Instant;
import java.util.List;

/**
 * What a report is made of, whether it comes from a run (one case) or a matrix (many).
 *
 * @param kind              {@code run} or {@code matrix}
 * @param status            the run's or matrix's status
 * @param system            the host that measured
 * @param workerEnvironment the JVM that measured (flags, collector); may be null when nothing ran
 * @param isolation         {@code forked} or {@code in-process}
 * @param executions        the executions as the matrix lists them (a run: its one); the first is the baseline of
 *                          the matched comparison of executions
 * @param rawDataUrl        where the JSON of every repetition is; the report links it as is, so an id in it is
 *                          percent-encoded
 * @param p99BoundUs        open-load rate sweeps: the p99 bound the report names each IO profile's highest rate
 *                          under; null for the default (1000 µs)
 * @param acrossHosts       the cases that ran across hosts, with what each agent did; empty on one host
 */
public record ReportSource(String kind, String id, String status, Instant createdAt, Instant finishedAt,
                           SystemInfo system, Environment workerEnvironment, String isolation,
                           List<CaseResult> cases, List<Execution> executions, String rawDataUrl,
                           Double p99BoundUs, List<CaseHosts> acrossHosts) {

    public ReportSource {
        acrossHosts = acrossHosts == null ? List.of() : List.copyOf(acrossHosts);
    }

    /** A source of load on this host only. */
    public ReportSource(String kind, String id, String status, Instant createdAt, Instant finishedAt,
                        SystemInfo system, Environment workerEnvironment, String isolation, List<CaseResult> cases,
                        List<Execution> executions, String rawDataUrl, Double p99BoundUs) {
        this(kind, id, status, createdAt, finishedAt, system, workerEnvironment, isolation, cases, executions,
                rawDataUrl, p99BoundUs, List.of());
    }

    public double p99Bound() {
        return p99BoundUs != null ? p99BoundUs : 1000.0;
    }
}
