package io.loopbench.engine.process;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a JIT event counts: a compilation where its code was installed, a deoptimization where it happened. */
class JitActivityTest {

    private static final Instant FROM = Instant.parse("2026-12-02T10:00:00Z");
    private static final Instant TO = FROM.plusSeconds(1);

    private static JvmEvents.Event compiled(Instant start, long millis, String method) {
        return new JvmEvents.Event(start, JvmEvents.Kind.COMPILATION, millis * 1_000_000, "compiled tier 4: "
                + method, false);
    }

    @Test
    void aCompilationBegunBeforeThePhaseAndInstalledInItCountsAndOneInstalledAfterItDoesNot() {
        List<JvmEvents.Event> events = List.of(
                compiled(FROM.minusMillis(5), 20, "a::begunInTheWarmUp"), // installed 15 ms into the phase
                compiled(FROM.plusMillis(100), 3, "b::inThePhase"),
                compiled(TO.minusMillis(2), 30, "c::installedAfter"), // begun in the phase, installed after it
                compiled(FROM.minusMillis(50), 10, "d::doneBefore"),
                new JvmEvents.Event(FROM.plusMillis(500), JvmEvents.Kind.DEOPTIMIZATION, 0,
                        "deoptimized (unstable_if): e::trap", false),
                new JvmEvents.Event(FROM.plusMillis(600), JvmEvents.Kind.GC, 4_000_000, "GC", true));

        JitActivity a = JvmEvents.activity(events, FROM, TO);

        assertThat(a.compilations()).isEqualTo(2);
        assertThat(a.compileMillis()).isEqualTo(23.0);
        assertThat(a.deoptimizations()).isEqualTo(1);
        assertThat(a.examples()).containsExactlyInAnyOrder("compiled tier 4: a::begunInTheWarmUp",
                "compiled tier 4: b::inThePhase", "deoptimized (unstable_if): e::trap");
        assertThat(a.quiet()).isFalse();
        // one installed before the phase is not in it; one installed after it counts in the span that follows
        assertThat(JvmEvents.activity(List.of(events.get(3)), FROM, TO).compilations()).isZero();
        assertThat(JvmEvents.activity(List.of(events.get(2)), TO, TO.plusSeconds(1)).compilations()).isEqualTo(1);
    }
}
