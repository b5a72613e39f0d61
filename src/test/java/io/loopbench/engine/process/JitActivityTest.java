package io.loopbench.engine.process;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a JIT event counts (a compilation where its code was installed, a deoptimization where it happened), and the
 * rule that judges a phase: only the measured path's deoptimizations and C2/OSR compilations, or the compilers' share
 * of the phase's CPU, make it not quiet.
 */
class JitActivityTest {

    private static final Instant FROM = Instant.parse("2026-12-02T10:00:00Z");
    private static final Instant TO = FROM.plusSeconds(1);
    /** The phase's CPU capacity: one second of one processor. */
    private static final long CPU = 1_000_000_000L;
    private static final String PATH = "io.netty.buffer.AbstractByteBuf";
    private static final String HARNESS = "io.loopbench.engine.Repetition";

    private static JvmEvents.Event compiled(Instant start, long millis, int tier, boolean osr, String type) {
        return new JvmEvents.Event(start, JvmEvents.Kind.COMPILATION, millis * 1_000_000, "compiled tier " + tier
                + (osr ? " OSR: " : ": ") + type + "::m", JitActivity.onMeasuredPath(type), tier == 4 || osr);
    }

    private static JvmEvents.Event deoptimized(Instant at, String type) {
        return new JvmEvents.Event(at, JvmEvents.Kind.DEOPTIMIZATION, 0, "deoptimized (unstable_if): " + type + "::m",
                JitActivity.onMeasuredPath(type), false);
    }

    private static JitActivity judged(JvmEvents.Event... events) {
        return JvmEvents.activity(List.of(events), FROM, TO, CPU);
    }

    @Test
    void aCompilationBegunBeforeThePhaseAndInstalledInItCountsAndOneInstalledAfterItDoesNot() {
        List<JvmEvents.Event> events = List.of(
                compiled(FROM.minusMillis(5), 20, 4, false, "a.BegunInTheWarmUp"), // installed 15 ms into the phase
                compiled(FROM.plusMillis(100), 3, 4, false, "b.InThePhase"),
                compiled(TO.minusMillis(2), 30, 4, false, "c.InstalledAfter"), // begun in the phase, installed after
                compiled(FROM.minusMillis(50), 10, 4, false, "d.DoneBefore"),
                deoptimized(FROM.plusMillis(500), "e.Trap"),
                new JvmEvents.Event(FROM.plusMillis(600), JvmEvents.Kind.GC, 4_000_000, "GC", false, false));

        JitActivity a = JvmEvents.activity(events, FROM, TO, CPU);

        assertThat(a.compilations()).isEqualTo(2);
        assertThat(a.compileMillis()).isEqualTo(23.0);
        assertThat(a.deoptimizations()).isEqualTo(1);
        assertThat(a.examples()).containsExactlyInAnyOrder("compiled tier 4: a.BegunInTheWarmUp::m",
                "compiled tier 4: b.InThePhase::m", "deoptimized (unstable_if): e.Trap::m");
        // one installed before the phase is not in it; one installed after it counts in the span that follows
        assertThat(JvmEvents.activity(List.of(events.get(3)), FROM, TO, CPU).compilations()).isZero();
        assertThat(JvmEvents.activity(List.of(events.get(2)), TO, TO.plusSeconds(1), CPU).compilations())
                .isEqualTo(1);
    }

    @Test
    void theHarnessCompilingAndDeoptimizingLeavesThePhaseQuiet() {
        JitActivity a = judged(compiled(FROM.plusMillis(10), 5, 4, false, HARNESS),
                compiled(FROM.plusMillis(20), 5, 3, true, "jdk.jfr.internal.Foo"),
                deoptimized(FROM.plusMillis(30), "java.util.HashMap"),
                compiled(FROM.plusMillis(40), 1, 3, false, PATH)); // a first-tier compilation of the path

        assertThat(a.quiet()).isTrue();
        assertThat(a.compilations()).isEqualTo(3);
        assertThat(a.deoptimizations()).isEqualTo(1);
        assertThat(a).extracting(JitActivity::pathCompilations, JitActivity::pathOptimizations,
                JitActivity::pathDeoptimizations).containsExactly(1L, 0L, 0L);
        assertThat(a.compileCpuShare()).isEqualTo(0.011);
        // the measured path's event is named first
        assertThat(a.examples().getFirst()).isEqualTo("compiled tier 3: " + PATH + "::m");
    }

    @Test
    void moreThanFiveDeoptimizationsOrC2OrOsrCompilationsOfTheMeasuredPathMakeThePhaseNotQuiet() {
        JvmEvents.Event[] five = {compiled(FROM.plusMillis(10), 1, 4, false, PATH),
                compiled(FROM.plusMillis(20), 1, 3, true, "io.loopbench.engine.client.EchoClient"),
                deoptimized(FROM.plusMillis(30), "sun.nio.ch.SocketChannelImpl"),
                compiled(FROM.plusMillis(35), 1, 4, false, "io.netty.buffer.AbstractByteBuf"),
                deoptimized(FROM.plusMillis(38), "org.HdrHistogram.AbstractHistogram")};
        JvmEvents.Event[] six = java.util.Arrays.copyOf(five, 6);
        six[5] = compiled(FROM.plusMillis(40), 1, 4, true, "reactor.core.publisher.Flux");

        assertThat(judged(five).quiet()).isTrue();
        assertThat(judged(five)).extracting(JitActivity::pathOptimizations, JitActivity::pathDeoptimizations)
                .containsExactly(3L, 2L);
        assertThat(judged(six).quiet()).isFalse();
        assertThat(judged(six).warning()).isEqualTo("measured phase not JIT-quiet: measured-path code changed 6 "
                + "times: 2 deoptimizations and 4 C2/OSR compilations (at most 5) (in the whole JVM: 4 compilations, "
                + "4.0 ms, 2 deoptimizations)");
        // the harness's deoptimizations do not count
        JvmEvents.Event[] harness = java.util.Arrays.copyOf(five, 7);
        harness[5] = deoptimized(FROM.plusMillis(50), HARNESS);
        harness[6] = deoptimized(FROM.plusMillis(60), "java.util.HashMap");
        assertThat(judged(harness).quiet()).isTrue();
    }

    @Test
    void compilationOverItsShareOfThePhasesCpuMakesThePhaseNotQuietWhateverItCompiled() {
        JitActivity at = judged(compiled(FROM.plusMillis(10), 25, 3, false, HARNESS)); // 2.5 % exactly
        JitActivity over = judged(compiled(FROM.plusMillis(10), 26, 3, false, HARNESS));

        assertThat(at.quiet()).isTrue();
        assertThat(over.quiet()).isFalse();
        assertThat(over.reasons()).isEqualTo("compilation took 2.6 % of the CPU the phase had (at most 2.5 %)");
        // where the phase's CPU time is unknown, the share is not judged
        assertThat(JvmEvents.activity(List.of(compiled(FROM.plusMillis(10), 500, 3, false, HARNESS)), FROM, TO, -1)
                .quiet()).isTrue();
    }

    @Test
    void theMeasuredPathIsTheEngineLoopsCodeNettyReactorAndTheJdkIoTheyCallNotTheHarness() {
        assertThat(List.of("io.loopbench.engine.client.EchoClient", "io.loopbench.engine.netty.HandlerEnds$1",
                "io.netty.channel.epoll.Native", "reactor.netty.tcp.TcpClient", "org.HdrHistogram.Histogram",
                "sun.nio.ch.IOUtil", "sun.security.ssl.SSLEngineImpl", "com.sun.crypto.provider.GaloisCounterMode"))
                .allMatch(JitActivity::onMeasuredPath);
        assertThat(List.of("io.loopbench.engine.Repetition", "io.loopbench.engine.process.JvmEvents",
                "io.loopbench.runs.RunService", "org.springframework.web.Foo", "java.util.HashMap",
                "jdk.jfr.internal.Foo")).noneMatch(JitActivity::onMeasuredPath);
    }
}
