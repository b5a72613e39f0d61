package io.loopbench.engine.spec;

/**
 * Which TLS implementation Netty's ends use for {@code tcps}, {@code wss} and {@code https}: {@code auto} (the
 * default) takes Netty's own rule, as a Reactor Netty service with the same class path gets: OpenSSL where it loads,
 * else the JDK's; {@code jdk}, the JDK's own; {@code openssl}, Netty's BoringSSL-based native provider (from
 * netty-tcnative). Virtual threads' blocking sockets always use the JDK's.
 */
public enum TlsProvider implements Labeled {
    AUTO, JDK, OPENSSL
}
