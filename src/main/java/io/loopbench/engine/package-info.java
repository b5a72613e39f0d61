/**
 * The measurement engine's entry points and its results: {@link io.loopbench.engine.Measurement} runs a spec's
 * repetitions and {@link io.loopbench.engine.StandingEchoServer} serves echoes for runs from other hosts. One
 * repetition reads top to bottom: {@code Repetition} takes the spec, opens its execution's pair of ends (the one place
 * executions are chosen; {@code Protocols} is where protocols are registered) and runs its stages in order
 * ({@code Repetition.STAGES}: warm-up, measured phase, JVM activity, figures, errors, open load, client checks,
 * profile, timeline), each a small class with one job that adds its part of a
 * {@link io.loopbench.engine.RepetitionResult} (grouped by concern) to the {@code RepetitionState} they share;
 * {@link io.loopbench.engine.Summary} sums the repetitions up. Plain Java on Reactor Netty: no Spring, no HTTP.
 *
 * <p>Threads: a measurement is configured and run by one thread, which also runs each repetition and its phases;
 * {@link io.loopbench.engine.RunControl#cancel()} may come from any other. The result records are immutable.
 */
package io.loopbench.engine;
