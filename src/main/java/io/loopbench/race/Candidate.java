package io.loopbench.race;

import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;

/**
 * One way to run a load that a recommendation races: an IO model with its thread count, a transport, an execution,
 * and where the server's work runs. Immutable.
 *
 * @param offload        where the server's work runs (loop in races stored before offloads)
 * @param offloadThreads the executor offload's pool size; null for the other offloads
 */
public record Candidate(IoModel ioModel, int ioThreads, Transport transport, Execution execution, Offload offload,
                        Integer offloadThreads) {

    public Candidate {
        offload = offload == null ? Offload.LOOP : offload;
        offloadThreads = offload == Offload.EXECUTOR ? offloadThreads : null;
    }

    /** A candidate whose server works on the loop. */
    public Candidate(IoModel ioModel, int ioThreads, Transport transport, Execution execution) {
        this(ioModel, ioThreads, transport, execution, Offload.LOOP, null);
    }

    /**
     * "shared 2 · epoll · netty", as reports and the page name it; with an offload "… · executor of 16 threads" or
     * "… · virtual-threads offload".
     */
    public String label() {
        String layout = ioModel.label() + " " + ioThreads + " · " + transport.label() + " · " + execution.label();
        return switch (offload) {
            case LOOP -> layout;
            case EXECUTOR -> layout + " · executor of " + offloadThreads + " threads";
            case VIRTUAL_THREADS -> layout + " · virtual-threads offload";
            case GRPC_DEFAULT -> layout + " · grpc-java's default executor";
        };
    }

    /** The load run this way, one repetition at a time. */
    public RunSpec apply(RunSpec load) {
        return load.toBuilder().ioModel(ioModel).ioThreads(ioThreads).transport(transport).execution(execution)
                .offload(offload).offloadThreads(offloadThreads).repetitions(1).build();
    }
}
