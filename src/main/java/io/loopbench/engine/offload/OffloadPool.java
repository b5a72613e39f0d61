package io.loopbench.engine.offload;

import io.grpc.internal.GrpcUtil;
import io.grpc.internal.SharedResourceHolder;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.RunSpec;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The threads a repetition's server offloads its per-message work to, made for the spec's {@code offload} and
 * execution, and released by {@link #close()} — after the pair's channels are closed — whatever the run's end:
 * <ul>
 *   <li>netty, executor: a {@link DefaultEventExecutorGroup} of {@code offloadThreads} threads (daemon, named
 *       {@value #THREAD_PREFIX}…), which the pipeline's echo handler runs on;</li>
 *   <li>netty, virtual-threads: a virtual-thread-per-task executor;</li>
 *   <li>reactive: a Reactor scheduler — {@code boundedElastic} of at most {@code offloadThreads} threads, or one over a
 *       virtual-thread-per-task executor;</li>
 *   <li>grpc-default: grpc-java's shared default executor, taken from its holder and given back;</li>
 *   <li>loop: nothing.</li>
 * </ul>
 * Made and closed by the repetition's thread; its pools are thread-safe.
 */
public final class OffloadPool implements AutoCloseable {

    /** The prefix of every platform thread an offload pool starts. */
    public static final String THREAD_PREFIX = "loopbench-offload";

    private final Offload offload;
    private final EventExecutorGroup group;
    private final ExecutorService virtualThreads;
    private final Scheduler scheduler;
    private final Executor grpcDefault;
    private final OffloadGauge gauge;

    private OffloadPool(Offload offload, EventExecutorGroup group, ExecutorService virtualThreads,
                        Scheduler scheduler, OffloadGauge gauge) {
        this.offload = offload;
        this.group = group;
        this.virtualThreads = virtualThreads;
        this.scheduler = scheduler;
        this.grpcDefault = offload == Offload.GRPC_DEFAULT ? SharedResourceHolder.get(GrpcUtil.SHARED_CHANNEL_EXECUTOR)
                : null;
        this.gauge = gauge;
    }

    /** The pool a spec asks for; its gauge counts only where the server has work or an offload. */
    public static OffloadPool of(RunSpec spec) {
        OffloadGauge gauge = spec.serverWork() || spec.offload() != Offload.LOOP ? new OffloadGauge() : null;
        boolean reactive = spec.execution() == Execution.REACTIVE;
        return switch (spec.offload()) {
            case LOOP -> new OffloadPool(Offload.LOOP, null, null, null, gauge);
            case GRPC_DEFAULT -> new OffloadPool(Offload.GRPC_DEFAULT, null, null, null, gauge);
            case EXECUTOR -> reactive
                    ? new OffloadPool(Offload.EXECUTOR, null, null, Schedulers.newBoundedElastic(
                            spec.offloadThreads(), Integer.MAX_VALUE, THREAD_PREFIX, 60, true), gauge)
                    : new OffloadPool(Offload.EXECUTOR, new DefaultEventExecutorGroup(spec.offloadThreads(),
                            new DefaultThreadFactory(THREAD_PREFIX, true)), null, null, gauge);
            case VIRTUAL_THREADS -> {
                ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
                yield new OffloadPool(Offload.VIRTUAL_THREADS, null, executor,
                        reactive ? Schedulers.fromExecutorService(executor, THREAD_PREFIX + "-virtual") : null,
                        gauge);
            }
        };
    }

    /** The pool of none: work on the loop, nothing counted (a standing echo server's, a test's). */
    public static OffloadPool none() {
        return new OffloadPool(Offload.LOOP, null, null, null, null);
    }

    public Offload offload() {
        return offload;
    }

    /** The netty execution's executor group, null unless it offloads to one. */
    public EventExecutorGroup group() {
        return group; // made for the netty execution only
    }

    /** The netty execution's virtual-thread-per-task executor, null unless it offloads to one. */
    public ExecutorService virtualThreads() {
        return scheduler == null ? virtualThreads : null;
    }

    /** The reactive execution's scheduler, null unless it offloads. */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** grpc-java's shared default executor, held until {@link #close()}; null unless the offload is grpc-default. */
    public Executor grpcDefault() {
        return grpcDefault;
    }

    /** Counts what the work does; null where the server has neither work nor an offload. */
    public OffloadGauge gauge() {
        return gauge;
    }

    /**
     * Stops every thread the pool started. Work still blocked (a channel closed mid-call) is interrupted rather than
     * waited for; a thread that outlives the 3 s wait is named by the repetition's leak checks, not hidden here.
     */
    @Override
    public void close() {
        if (grpcDefault != null) {
            SharedResourceHolder.release(GrpcUtil.SHARED_CHANNEL_EXECUTOR, grpcDefault); // grpc-java ends it 1 s later
        }
        if (scheduler != null) {
            scheduler.dispose();
        }
        if (group != null) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
        if (virtualThreads != null) {
            virtualThreads.shutdownNow();
            try {
                virtualThreads.awaitTermination(3, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
