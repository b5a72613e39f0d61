/**
 * Echo servers: the server end of each execution — {@link io.loopbench.engine.server.EchoServerHandler} (netty),
 * {@link io.loopbench.engine.server.ReactiveEcho} (reactive), {@link io.loopbench.engine.server.BlockingEchoServer}
 * (virtual threads), {@link io.loopbench.engine.server.RawEchoHandler} (a standing server told no message size) — and
 * what every one of them does with a message before echoing it: check its header and run the configured work
 * ({@link io.loopbench.engine.server.ServerCheck}), counting errors in {@link io.loopbench.engine.server.ServerStats}.
 *
 * <p>Threads: each server end is confined to its event loop or virtual thread; the check, the stats and an injected
 * {@link io.loopbench.engine.server.ServerFault} are shared by all of them and thread-safe.
 */
package io.loopbench.engine.server;
