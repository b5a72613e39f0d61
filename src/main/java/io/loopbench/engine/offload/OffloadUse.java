package io.loopbench.engine.offload;

/**
 * What the server's per-message work did in one repetition (warm-up included): a result's {@code offloadUse}.
 *
 * @param busyPeak       the most messages in work at once: how many threads ran it in parallel at its peak
 * @param workThreads    the distinct platform threads that ran it (0 where only virtual threads did)
 * @param queuePeak      the most hand-offs waiting for an offload thread: a stream's read batches (tcp, tcps) or
 *                       messages (the others); 0 on the loop
 */
public record OffloadUse(int busyPeak, int workThreads, int queuePeak) {
}
