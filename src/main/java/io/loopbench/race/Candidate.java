package io.loopbench.race;

import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;

/**
 * One way to run a load that a recommendation races: an IO model with its thread count, a transport and an
 * execution. Immutable.
 */
public record Candidate(IoModel ioModel, int ioThreads, Transport transport, Execution execution) {

    /** "shared 2 · epoll · netty", as reports and the page name it. */
    public String label() {
        return ioModel.label() + " " + ioThreads + " · " + transport.label() + " · " + execution.label();
    }

    /** The load run this way, one repetition at a time. */
    public RunSpec apply(RunSpec load) {
        return load.toBuilder().ioModel(ioModel).ioThreads(ioThreads).transport(transport).execution(execution)
                .repetitions(1).build();
    }
}
