/**
 * arknet's message format: a 16-byte header (magic, phase tag, client id, sequence) and a body derived from the
 * client id and the sequence, which the clients write and check and the servers check before echoing.
 *
 * <p>Threads: stateless; safe on any thread.
 */
package io.loopbench.engine.message;
