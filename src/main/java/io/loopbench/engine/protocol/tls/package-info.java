/**
 * TLS over TCP ({@code tcps}): TCP's byte stream through Reactor Netty's {@code secure()} or the JDK's TLS sockets,
 * with a throw-away CA and server certificate (BouncyCastle, in memory, once per JVM) or the user's own PEM files.
 *
 * <p>Threads: {@link io.loopbench.engine.protocol.tls.TlsMaterial} is immutable; a
 * {@link io.loopbench.engine.protocol.tls.Tls} builds its contexts on first use and records its first handshake once;
 * its blocking sockets follow TCP's rule (read and written by one thread, closed from any).
 */
package io.loopbench.engine.protocol.tls;
