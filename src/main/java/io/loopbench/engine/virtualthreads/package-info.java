/**
 * The {@code virtual-threads} execution: blocking JDK sockets, one virtual thread per client end, on the JDK's own
 * scheduler (its server end is the server package's BlockingEchoServer).
 *
 * <p>Threads: a pair is opened, read and closed by the repetition's thread; a client's socket and buffers belong to
 * its virtual thread, which runs the tasks the repetition queues for it between reads.
 */
package io.loopbench.engine.virtualthreads;
