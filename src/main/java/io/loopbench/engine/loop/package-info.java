/**
 * The threads that carry the sockets: a repetition's event loops laid out {@code shared} or {@code sharded} on a
 * Netty transport ({@link io.loopbench.engine.loop.LoopLayout}, {@link io.loopbench.engine.loop.Transports}), or the
 * JDK's virtual-thread carriers ({@link io.loopbench.engine.loop.VirtualThreads}).
 *
 * <p>Threads: a layout is created and closed by one thread, its groups are thread-safe; the rest is stateless or
 * thread-safe.
 */
package io.loopbench.engine.loop;
