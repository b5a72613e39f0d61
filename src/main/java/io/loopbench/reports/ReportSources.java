package io.loopbench.reports;

import io.loopbench.matrices.MatrixRecord;
import io.loopbench.matrices.MatrixService;
import io.loopbench.jobs.RunExceptions;
import io.loopbench.runs.RunRecord;
import io.loopbench.runs.RunService;
import org.springframework.stereotype.Component;

import java.util.List;

/** Finds what a report or comparison is made of, by id. */
@Component
public class ReportSources {

    private final RunService runs;
    private final MatrixService matrices;

    public ReportSources(RunService runs, MatrixService matrices) {
        this.runs = runs;
        this.matrices = matrices;
    }

    public ReportSource run(String id) {
        return of(runs.get(id));
    }

    public ReportSource matrix(String id) {
        return of(matrices.get(id));
    }

    /** A run or a matrix, whichever has this id. */
    public ReportSource any(String id) {
        return runs.store().find(id).map(ReportSources::of)
                .or(() -> matrices.store().find(id).map(ReportSources::of))
                .orElseThrow(() -> new RunExceptions.NotFound("run or matrix", id));
    }

    static ReportSource of(MatrixRecord m) {
        List<CaseResult> cases = m.cases().stream().map(c -> new CaseResult(c.spec(), c.transport(), c.summary(),
                c.repetitions(), c.summary() != null ? null : c.error() != null ? c.error()
                : c.repetitions().size() + " of " + c.spec().repetitions() + " repetitions ran")).toList();
        // effective(): a matrix stored before executions were a dimension lists none, and ran netty
        return new ReportSource("matrix", m.id(), m.status().label(), m.createdAt(), m.finishedAt(), m.system(),
                m.workerEnvironment(), m.spec().isolation().label(), cases, m.spec().effective().executions(),
                "/api/matrices/" + Format.pathSegment(m.id()), m.spec().p99BoundUs(), m.cases().stream()
                .filter(c -> c.placement() != null)
                .map(c -> new CaseHosts(c.number(), c.agentGroup(), c.placement(), c.acrossHosts())).toList());
    }

    static ReportSource of(RunRecord r) {
        CaseResult c = new CaseResult(r.spec(), r.transport(), r.summary(), r.repetitions(),
                r.summary() == null ? (r.error() == null ? "not finished (" + r.status().label() + ")" : r.error())
                        : null);
        return new ReportSource("run", r.id(), r.status().label(), r.createdAt(), r.finishedAt(), r.system(),
                r.workerEnvironment(), r.isolation().label(), List.of(c), List.of(r.spec().execution()),
                "/api/runs/" + Format.pathSegment(r.id()), null, r.placement() == null ? List.of()
                : List.of(new CaseHosts(1, null, r.placement(), r.acrossHosts())));
    }
}
