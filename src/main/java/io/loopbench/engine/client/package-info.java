/**
 * The client side of a repetition, whatever its execution or protocol: each
 * {@link io.loopbench.engine.client.EchoClient} with its window of messages in flight, the checks of every echo, its
 * phases, and how it keeps its window filled — a sliding window, batches, or open load paced by its loop's
 * {@link io.loopbench.engine.client.LoopPacer}. {@link io.loopbench.engine.client.EchoPair} is what an execution opens
 * for a repetition, and {@link io.loopbench.engine.client.ClientIo} what a client needs from the code that owns its
 * socket.
 *
 * <p>Threads: a client and everything it holds are confined to its owner's thread (an event loop or a virtual
 * thread), and so is a pacer to its loop; the repetition reaches them only by tasks run there, and reads their
 * counters after the phase's barrier task has run.
 */
package io.loopbench.engine.client;
