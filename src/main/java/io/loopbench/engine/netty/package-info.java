/**
 * The {@code netty} execution, and the pair of ends it shares with {@code reactive}: echo servers and clients on the
 * repetition's own event loops, bound, connected and programmed as its execution's
 * {@link io.loopbench.engine.netty.NettyEnds} say; here, through the protocol, one handler at the end of each
 * pipeline.
 *
 * <p>Threads: a pair is opened, read and closed by the repetition's thread; each handler is confined to its
 * channel's event loop.
 */
package io.loopbench.engine.netty;
