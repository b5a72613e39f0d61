/**
 * Where the server's per-message work runs when it leaves the event loop (the spec's {@code offload}): the pools a
 * repetition owns ({@link io.loopbench.engine.offload.OffloadPool}), the per-connection ordering of replies computed on
 * virtual threads ({@link io.loopbench.engine.offload.OrderedReplies}), and what the work did
 * ({@link io.loopbench.engine.offload.OffloadGauge}).
 */
package io.loopbench.engine.offload;
