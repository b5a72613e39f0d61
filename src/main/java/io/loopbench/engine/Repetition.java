package io.loopbench.engine;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.client.EchoPair;
import io.loopbench.engine.grpc.GrpcEnds;
import io.loopbench.engine.netty.HandlerEnds;
import io.loopbench.engine.netty.NettyEchoPair;
import io.loopbench.engine.profile.CpuProfiler;
import io.loopbench.engine.protocol.BlockingProtocol;
import io.loopbench.engine.protocol.EchoProtocol;
import io.loopbench.engine.protocol.grpc.Grpc;
import io.loopbench.engine.reactive.ReactiveEnds;
import io.loopbench.engine.offload.OffloadPool;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerFault;
import io.loopbench.engine.server.ServerStats;
import io.loopbench.engine.spec.Profiling;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.virtualthreads.BlockingEchoPair;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CancellationException;

/**
 * One repetition, run by one thread from start to end: opens its {@link EchoPair} (its own loops or carrier
 * threads, servers bound on port 0, clients connected one at a time), runs its {@link #STAGES} in order over it,
 * and closes the pair — on success, failure and cancellation alike.
 */
final class Repetition {

    /**
     * What a repetition does once its pair is open, in order: the phases, then the figures and the checks of what
     * they counted. A stage that warns or notes adds its words in this order.
     */
    static final List<RepetitionStage> STAGES = List.of(new WarmupStage(), new MeasuredPhaseStage(), new JvmStage(),
            new FiguresStage(), new ErrorsStage(), new OpenLoadStage(), new ClientChecksStage(), new ProfileStage(),
            new TimelineStage());

    private final RunSpec spec;
    private final int index;
    private final Transport transport;
    private final ServerFault fault;
    private final ProgressListener progress;
    private final RunControl control;
    /** Whether the flight recorder's JIT and GC events are watched ({@link Measurement#withoutJvmEvents()}). */
    private final boolean jvmEvents;

    Repetition(RunSpec spec, int index, Transport transport, ServerFault fault, ProgressListener progress,
               RunControl control, boolean jvmEvents) {
        this.spec = spec;
        this.jvmEvents = jvmEvents;
        this.index = index;
        this.transport = transport;
        this.fault = fault;
        this.progress = progress;
        this.control = control;
    }

    RepetitionResult run() {
        OffloadPool offload = OffloadPool.of(spec);
        ServerCheck check = new ServerCheck(spec.work(), TimeUnit.MICROSECONDS.toNanos(spec.blockingMicros()),
                new ServerStats(), offload.gauge());
        EchoProtocol protocol = Protocols.of(spec);
        Runnable checkpoint = control::throwIfCancelled;
        EchoPair pair = switch (spec.execution()) {
            case NETTY -> new NettyEchoPair(spec, transport, protocol, protocol instanceof Grpc grpc
                    ? new GrpcEnds(grpc, check, fault, offload)
                    : new HandlerEnds(spec.payloadBytes(), check, fault, protocol, offload), checkpoint);
            case REACTIVE -> new NettyEchoPair(spec, transport, protocol,
                    new ReactiveEnds(spec.payloadBytes(), protocol.stream(), check, offload), checkpoint);
            // the spec's rules let only a protocol with blocking ends run on virtual threads (Protocol.runsOn)
            case VIRTUAL_THREADS -> new BlockingEchoPair(spec, (BlockingProtocol) protocol, check, checkpoint);
        };
        CpuProfiler.Session profiling = null;
        try {
            List<EchoClient> clients = pair.open();
            groupByThread(clients, pair.sameThread());
            // sampled from the warm-up's start (see CpuProfiler.Session#restart)
            profiling = spec.profiling() == Profiling.CPU ? CpuProfiler.start(CpuProfiler.DEFAULT_INTERVAL_MICROS)
                    : null;
            RepetitionState state = new RepetitionState(spec, index, transport, pair, protocol, clients, check,
                    progress, control, jvmEvents, profiling);
            for (RepetitionStage stage : STAGES) {
                stage.run(state);
            }
            return state.result();
        } catch (CancellationException e) {
            throw e;
        } catch (Exception e) {
            return RepetitionResult.failed(index, transport, spec.ioThreads(), new Failure.SetUp(withCauses(e)));
        } finally {
            if (profiling != null) {
                profiling.close(); // a cancelled or failed repetition releases the profiler too
            }
            if (offload.gauge() != null) {
                offload.gauge().stop(); // blocking calls end now, not after a loop's queue of them
            }
            pair.close();
            offload.close();
        }
    }

    /** A layout that puts some clients on their server end's thread and others not keeps each group's RTTs apart. */
    private static void groupByThread(List<EchoClient> clients, List<Boolean> sameThread) {
        if (sameThread != null && sameThread.contains(true) && sameThread.contains(false)) {
            for (int i = 0; i < clients.size(); i++) {
                clients.get(i).group(sameThread.get(i));
            }
        }
    }

    /**
     * An exception with its causes: a provider may say only "General OpenSslEngine problem" on top and name the
     * refused certificate beneath.
     */
    static String withCauses(Throwable e) {
        StringBuilder b = new StringBuilder(String.valueOf(e));
        Throwable seen = e;
        for (Throwable c = e.getCause(); c != null && c != seen; seen = c, c = c.getCause()) {
            b.append("; caused by ").append(c);
        }
        return b.toString();
    }
}
