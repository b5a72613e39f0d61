package io.loopbench.engine.profile;

import io.loopbench.engine.server.Work;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which profiler samples, and what it sees of a known hot method. */
class CpuProfilerTest {

    /** CPU work of a known amount, whatever the machine's load: the samplers count CPU time, not wall time. */
    private static long busy() {
        long v = 0;
        for (int i = 0; i < 40_000; i++) {
            v += Work.run(10_000, (byte) i);
        }
        return v;
    }

    @Test
    void asyncProfilerSeesTheHotMethod() {
        CpuProfiler.Session s = CpuProfiler.start(1000);
        assertThat(s.refused()).isNull();
        busy();
        s.stop();
        CpuProfile p = s.profile();

        assertThat(p.profiler()).startsWith("async-profiler ");
        assertThat(p.fallback()).isNull();
        assertThat(p.samples()).isPositive();
        assertThat(CallTreeTest.selfSum(p)).isEqualTo(p.samples());
        assertThat(p.threads().getFirst().layers().getFirst().layer()).isEqualTo(Layer.WORK);
    }

    @Test
    void whenTheNativeProfilerCannotLoadTheFlightRecorderSamplesAndSaysWhy() {
        CpuProfiler.Session s = CpuProfiler.start(1000, () -> {
            throw new UnsatisfiedLinkError("no libasyncProfiler.so for this platform");
        });
        busy();
        s.stop();
        CpuProfile p = s.profile();

        assertThat(p.profiler()).isEqualTo("flight recorder");
        // CPU-time samples, unless async-profiler was loaded into this JVM by an earlier test
        assertThat(p.event()).isIn("jdk.CPUTimeSample", "jdk.ExecutionSample");
        assertThat(p.fallback()).isEqualTo("async-profiler could not start: no libasyncProfiler.so for this platform");
        assertThat(p.kernelFrames()).isFalse();
        assertThat(p.samples()).isPositive();
        assertThat(CallTreeTest.selfSum(p)).isEqualTo(p.samples());
        assertThat(p.frames()).contains("io/loopbench/engine/server/Work.run");
        assertThat(p.threads().getFirst().layers().getFirst().layer()).isEqualTo(Layer.WORK);
    }

    @Test
    void oneProfileAtATimePerJvm() {
        CpuProfiler.Session first = CpuProfiler.start(1000);
        try {
            CpuProfiler.Session second = CpuProfiler.start(1000);
            assertThat(second.refused()).isEqualTo("another profile of this JVM was being taken");
            assertThatThrownBy(second::stop).hasMessage("another profile of this JVM was being taken");
        } finally {
            first.stop();
            first.profile();
        }
        CpuProfiler.Session third = CpuProfiler.start(1000);
        assertThat(third.refused()).isNull();
        third.stop();
        third.profile();
    }

    @Test
    void aRestartDropsWhatWasSampledBefore() {
        try (CpuProfiler.Session s = CpuProfiler.start(1000)) {
            busy(); // the warm-up: sampled, then dropped
            s.restart();
            s.stop();
            CpuProfile p = s.profile();
            assertThat(p.frames()).doesNotContain("io/loopbench/engine/server/Work.run");
        }
        try (CpuProfiler.Session s = CpuProfiler.start(1000)) {
            s.restart();
            busy();
            s.stop();
            assertThat(s.profile().frames()).contains("io/loopbench/engine/server/Work.run");
        }
    }

    @Test
    void closingASessionReleasesTheProfilerWhateverItReached() {
        CpuProfiler.Session running = CpuProfiler.start(1000);
        running.close(); // never stopped: a phase that failed
        running.close();
        CpuProfiler.Session stopped = CpuProfiler.start(1000);
        assertThat(stopped.refused()).isNull();
        stopped.stop();
        stopped.close(); // stopped, its profile never built
        try (CpuProfiler.Session flightRecorder = CpuProfiler.start(1000, () -> {
            throw new UnsatisfiedLinkError("none here");
        })) {
            assertThat(flightRecorder.refused()).isNull();
        }
        try (CpuProfiler.Session last = CpuProfiler.start(1000)) {
            assertThat(last.refused()).isNull();
            CpuProfiler.Session refused = CpuProfiler.start(1000);
            refused.close(); // a refused session holds nothing: the profiler stays with the first
            assertThat(CpuProfiler.start(1000).refused()).isNotNull();
        }
    }
}
