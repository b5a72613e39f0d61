package io.loopbench.engine.profile;

import io.loopbench.engine.EngineTestSupport;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.spec.Profiling;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Profiles of real measured phases: the work per echo found where it runs. */
class CpuProfileTest {

    private static RunSpec.Builder tcp() {
        return RunSpec.builder().protocol(Protocol.TCP).clients(4).window(4).ioThreads(1).payloadBytes(1024)
                .warmupSeconds(0.5).warmupMode(WarmupMode.FIXED).seconds(1.0).repetitions(1).profiling(Profiling.CPU);
    }

    @Test
    void theWorkPerEchoIsTheLoopThreadsLargestLayer() {
        RepetitionResult r = EngineTestSupport.measure(tcp().work(10_000).build()).runRepetition(1);
        CpuProfile p = r.cpuProfile();

        assertThat(p).as("profile; notes %s", r.checks().notes()).isNotNull();
        assertThat(p.samples()).isPositive();
        assertThat(CallTreeTest.selfSum(p)).isEqualTo(p.samples());
        assertThat(p.frames()).contains("io/loopbench/engine/server/Work.run");
        CpuProfile.ThreadShare loop = p.threads().stream().filter(t -> t.thread().equals("[loopbench-epoll-0-1]"))
                .findFirst().orElseThrow();
        assertThat(loop.layers().getFirst().layer()).as("%s", loop.layers()).isEqualTo(Layer.WORK);
        // the samples are CPU time: at 5 ms each they stand for about the CPU time the process used
        assertThat(p.samples() * p.intervalMicros() / 1e6).isBetween(r.resources().cpu().seconds() * 0.5,
                r.resources().cpu().seconds() * 1.5);
        // the command line's line names the largest layers
        assertThat(io.loopbench.worker.ProgressLines.finished(r, 1)).contains(", CPU by layer: "
                + p.layers().getFirst().words() + " ");
    }

    @Test
    void offTakesNoProfile() {
        RepetitionResult r = EngineTestSupport.measure(tcp().seconds(0.3).profiling(Profiling.OFF).build())
                .runRepetition(1);
        assertThat(r.cpuProfile()).isNull();
        assertThat(r.checks().notes()).noneMatch(n -> n.contains("profile"));
    }
}
