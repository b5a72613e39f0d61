/**
 * UDP: one message per datagram, the socket buffers of UdpBuffers requested on every socket.
 *
 * <p>Threads: stateless; a blocking socket is read and written by one thread and may be closed from any.
 */
package io.loopbench.engine.protocol.udp;
