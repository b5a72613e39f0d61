/**
 * TCP: a byte stream, TCP_NODELAY at both ends.
 *
 * <p>Threads: stateless; a blocking socket is read and written by one thread and may be closed from any.
 */
package io.loopbench.engine.protocol.tcp;
