package io.loopbench.engine.offload;

/**
 * What the server's per-message work did in one repetition's measured phase: a result's {@code offloadUse}. The means
 * are time averages (Little's law: total time in work, or waiting, over the phase's length).
 *
 * @param busyMean    messages in work at once, on average: the threads the work kept busy
 * @param busyPeak    the most messages in work at once
 * @param workThreads the distinct platform threads that ran the work (0 where only virtual threads did)
 * @param queueMean   hand-offs waiting for an offload thread, on average: a stream's read batches (tcp, tcps) or
 *                    messages (the others); 0 on the loop
 * @param queuePeak   the most hand-offs waiting at once (a phase starts with every client's window sent at once)
 */
public record OffloadUse(double busyMean, int busyPeak, int workThreads, double queueMean, int queuePeak) {
}
