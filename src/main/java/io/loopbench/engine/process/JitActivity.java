package io.loopbench.engine.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the JIT compiler did during one phase, from the JVM's own flight recorder ({@code jdk.Compilation} events,
 * every one whatever its duration, and {@code jdk.Deoptimization} events), each counted where it took effect.
 *
 * <p>The rule that judges it ({@link #quiet}) looks at what could change the figures, not at every event in the JVM:
 * the harness, the flight recorder's consumer, the control plane's threads compile all the time without touching an
 * echo. A phase is <em>not</em> JIT-quiet when code on the {@linkplain #onMeasuredPath measured path} (the engine's
 * client, server, protocol and message code, Netty, Reactor, HdrHistogram, and the JDK's NIO, networking and crypto
 * they call) changed more than {@link #PATH_CHANGES_ALLOWED} times — a deoptimization (compiled code thrown away: the
 * echoes ran interpreted for a while) or a C2 or OSR compilation (final optimized code: the echoes ran slower code
 * before it) — or when the compilers took
 * more than {@link #MAX_COMPILE_CPU_SHARE} of the CPU the phase had ({@link #capacityNanos}: its wall time on every
 * processor the JVM may use), CPU the echoes may not have got, whatever was compiled. The share is of that capacity,
 * not of the process's own CPU time: a light load leaves cores idle, and 10 ms of compilation beside 50 ms of echoes
 * takes nothing from them. A first-tier compilation of a path method that a phase reaches for the first time (its end, a rare
 * branch) changes nothing measurable and does not count against it.
 *
 * @param compilations         methods compiled (any tier, OSR included) during the phase, anywhere in the JVM
 * @param deoptimizations      compiled frames sent back to the interpreter during the phase, anywhere in the JVM
 * @param compileMillis        time the compiler threads spent on those compilations, milliseconds
 * @param quiet                by the rule above (records stored before this rule: no deoptimization and under 1 ms)
 * @param examples             the first few events, measured-path ones first, e.g.
 *                             {@code compiled tier 4: io.loopbench.engine.client.EchoClient::echoed}, so that a user
 *                             sees what changed
 * @param pathCompilations     compilations of measured-path methods (null in records stored before this rule)
 * @param pathOptimizations    of those, C2 (tier 4) or OSR compilations
 * @param pathDeoptimizations  deoptimizations of measured-path methods
 * @param compileCpuShare      compileMillis ÷ {@link #capacityNanos} of the phase (null where that is unknown)
 */
public record JitActivity(long compilations, long deoptimizations, double compileMillis, boolean quiet,
                          List<String> examples, Long pathCompilations, Long pathOptimizations,
                          Long pathDeoptimizations, Double compileCpuShare) {

    /**
     * Share of a phase's CPU capacity the compilers may take and leave it quiet: half the 5 % a verdict needs by
     * default, so that what they took cannot by itself make a difference a report calls established. A cold phase
     * takes 40 to 67 % (bench/LOG.md).
     */
    public static final double MAX_COMPILE_CPU_SHARE = 0.025;

    /**
     * Changes of measured-path code (deoptimizations and C2/OSR compilations together) a phase may see and stay
     * quiet. Calibrated (bench/LOG.md, bench/jit.sh): steady references, the third and fourth repetitions in
     * one JVM, see 0 to 3 in all but the odd one (a late compilation of the event loop's own machinery: its task
     * runner, its scheduled-task queue, the OSR of its run loop, as each repetition starts new loops; or one uncommon
     * trap), while a cold phase sees well over a hundred. A fresh JVM's first phase after an auto warm-up that ended
     * steady sees 1 to 5; alternated with phases after a 20 s warm-up (0 or 1), their throughput and p99 differed by
     * no more than 5 % (18 pairs on two machines, bench/PairedVerdict.java): that many late changes leave the figures
     * sound, so they do not warn.
     */
    public static final int PATH_CHANGES_ALLOWED = 5;

    /**
     * Changes of measured-path code an auto warm-up's last span (0.6 s) may see and end steady: fewer than a whole phase
     * may, since a fresh JVM's late compilations come in bursts. With this bound, a fresh JVM's first measured phase
     * saw 1 to 5 (bench/LOG.md, "The JIT warning on fresh JVMs").
     */
    public static final int WARMUP_PATH_CHANGES_ALLOWED = 3;

    /** Package prefixes of the code an echo runs through, the JDK's included; everything else is the harness. */
    static final List<String> MEASURED_PATH = List.of(
            "io.loopbench.engine.client.", "io.loopbench.engine.server.", "io.loopbench.engine.protocol.",
            "io.loopbench.engine.message.", "io.loopbench.engine.netty.", "io.loopbench.engine.reactive.",
            "io.loopbench.engine.virtualthreads.", "io.loopbench.engine.latency.", "io.loopbench.engine.timeline.",
            "io.netty.", "reactor.", "org.HdrHistogram.",
            "java.nio.", "sun.nio.", "java.net.", "sun.net.", "javax.net.ssl.", "sun.security.ssl.", "javax.crypto.",
            "com.sun.crypto.provider.", "sun.security.provider.");

    /** How many events {@code examples} names at most. */
    static final int EXAMPLES = 10;

    public JitActivity {
        examples = examples == null ? List.of() : List.copyOf(examples);
    }

    /** Whether code of this class (a binary name, e.g. {@code io.netty.buffer.AbstractByteBuf}) runs per echo. */
    public static boolean onMeasuredPath(String className) {
        return MEASURED_PATH.stream().anyMatch(className::startsWith);
    }

    /** The CPU a span of {@code elapsedNanos} had: that wall time on every processor the JVM may use. */
    public static long capacityNanos(long elapsedNanos) {
        return elapsedNanos * Runtime.getRuntime().availableProcessors();
    }

    /**
     * The activity judged by the rule; {@code capacityNanos}: the span's {@link #capacityNanos}, negative where
     * unknown (then the share is not judged).
     */
    static JitActivity of(long compilations, long deoptimizations, double compileMillis, List<String> examples,
                          long pathCompilations, long pathOptimizations, long pathDeoptimizations,
                          long capacityNanos) {
        Double share = capacityNanos > 0 ? compileMillis * 1e6 / capacityNanos : null;
        boolean quiet = pathOptimizations + pathDeoptimizations <= PATH_CHANGES_ALLOWED
                && (share == null || share <= MAX_COMPILE_CPU_SHARE);
        return new JitActivity(compilations, deoptimizations, compileMillis, quiet, examples, pathCompilations,
                pathOptimizations, pathDeoptimizations, share);
    }

    /** Why the phase was not quiet, e.g. "2 C2/OSR compilations of measured-path code; compilation 3.1 % of CPU". */
    public String reasons() {
        List<String> why = new ArrayList<>();
        long changes = pathOptimizations == null ? 0 : pathOptimizations + pathDeoptimizations;
        if (changes > PATH_CHANGES_ALLOWED) {
            why.add(String.format(Locale.ROOT, "measured-path code changed %d times: %s and %s (at most %d)",
                    changes, count(pathDeoptimizations, "deoptimization"),
                    count(pathOptimizations, "C2/OSR compilation"), PATH_CHANGES_ALLOWED));
        }
        if (compileCpuShare != null && compileCpuShare > MAX_COMPILE_CPU_SHARE) {
            why.add(String.format(Locale.ROOT, "compilation took %.1f %% of the CPU the phase had (at most %.1f %%)",
                    compileCpuShare * 100, MAX_COMPILE_CPU_SHARE * 100));
        }
        if (why.isEmpty()) { // a record stored under the old rule
            why.add(count(deoptimizations, "deoptimization") + ", " + String.format(Locale.ROOT, "%.1f ms",
                    compileMillis) + " of compilation");
        }
        return String.join("; ", why);
    }

    /** The warning a measured phase that was not JIT-quiet carries. */
    public String warning() {
        return String.format(Locale.ROOT, "measured phase not JIT-quiet: %s (in the whole JVM: %d compilations, "
                + "%.1f ms, %d deoptimizations)", reasons(), compilations, compileMillis, deoptimizations);
    }

    private static String count(long n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
