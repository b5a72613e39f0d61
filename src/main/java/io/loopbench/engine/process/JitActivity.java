package io.loopbench.engine.process;

import java.util.List;
import java.util.Locale;

/**
 * What the JIT compiler did during one phase, from the JVM's own flight recorder ({@code jdk.Compilation} events,
 * every one whatever its duration, and {@code jdk.Deoptimization} events) whose start falls in the phase. A phase
 * with a deoptimization, or with {@link #QUIET_COMPILE_MILLIS} or more of compilation, was not JIT-quiet: code changed
 * under the measurement, so its figures may mix interpreted, first-tier and final code. Below that, what compiles is
 * the odd cold path of the harness at the phase's edges (a tier-3 compilation takes some 0.1 ms), not the echo path.
 *
 * @param compilations    methods compiled (any tier, OSR included) during the phase
 * @param deoptimizations compiled frames sent back to the interpreter during the phase (e.g. an uncommon trap)
 * @param compileMillis   time the compiler threads spent on those compilations, milliseconds
 * @param quiet           true when there was no deoptimization and under {@link #QUIET_COMPILE_MILLIS} of compilation
 * @param examples        the first few of them, e.g.
 *                        {@code compiled tier 4: io.loopbench.engine.client.EchoClient::echoed} or
 *                        {@code deoptimized (unstable_if): …}, so that a user sees what changed
 */
public record JitActivity(long compilations, long deoptimizations, double compileMillis, boolean quiet,
                          List<String> examples) {

    /** Compilation time below which a phase still counts as JIT-quiet, ms. */
    public static final double QUIET_COMPILE_MILLIS = 1.0;

    /** How many events {@code examples} names at most. */
    static final int EXAMPLES = 10;

    public JitActivity {
        examples = examples == null ? List.of() : List.copyOf(examples);
    }

    /** The warning a measured phase that was not JIT-quiet carries. */
    public String warning() {
        return String.format(Locale.ROOT, "measured phase not JIT-quiet: %d compilations (%.1f ms), "
                + "%d deoptimizations", compilations, compileMillis, deoptimizations);
    }

    static JitActivity of(long compilations, long deoptimizations, double compileMillis, List<String> examples) {
        return new JitActivity(compilations, deoptimizations, compileMillis, deoptimizations == 0
                && compileMillis < QUIET_COMPILE_MILLIS,
                examples);
    }
}
