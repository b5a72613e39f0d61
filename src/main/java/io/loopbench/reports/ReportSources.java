package io.loopbench.reports;

import io.loopbench.runs.RunExceptions;
import io.loopbench.runs.RunRecord;
import io.loopbench.runs.RunService;
import org.springframework.stereotype.Component;

import java.util.List;

/** Finds what a report or comparison is made of, by id. */
@Component
public class ReportSources {

    private final RunService runs;

    public ReportSources(RunService runs) {
        this.runs = runs;
    }

    public ReportSource run(String id) {
        return of(runs.get(id));
    }

    /** A run or a matrix, whichever has this id. */
    public ReportSource any(String id) {
        return runs.store().find(id).map(ReportSources::of).orElseThrow(() -> new RunExceptions.NotFound(id));
    }

    static ReportSource of(RunRecord r) {
        CaseResult c = new CaseResult(r.spec(), r.transport(), r.summary(), r.repetitions().size(),
                r.summary() == null ? (r.error() == null ? "not finished (" + r.status().label() + ")" : r.error())
                        : null);
        return new ReportSource("run", r.id(), r.status().label(), r.createdAt(), r.finishedAt(), r.system(),
                r.workerEnvironment(), r.isolation().label(), List.of(c), "/api/runs/" + r.id());
    }
}
