/**
 * The measurement engine's entry points and its results: {@link io.loopbench.engine.Measurement} runs a spec's
 * repetitions and {@link io.loopbench.engine.StandingEchoServer} serves echoes for runs from other hosts. One
 * repetition reads top to bottom: {@code Repetition} takes the spec, opens its execution's pair of ends (the one place
 * executions are chosen; {@code Protocols} is where protocols are registered), runs its phases with
 * {@code PhaseRunner}, and turns what the clients counted and recorded into a
 * {@link io.loopbench.engine.RepetitionResult}; {@link io.loopbench.engine.Summary} sums the repetitions up. Plain Java on Reactor Netty: no Spring, no HTTP.
 *
 * <p>Threads: a measurement is configured and run by one thread, which also runs each repetition and its phases;
 * {@link io.loopbench.engine.RunControl#cancel()} may come from any other. The result records are immutable.
 */
package io.loopbench.engine;
