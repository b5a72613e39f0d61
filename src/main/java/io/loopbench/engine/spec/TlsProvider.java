package io.loopbench.engine.spec;

/**
 * Which TLS implementation Netty's ends use for {@code tcps}: the JDK's own ({@code jdk}), or Netty's BoringSSL-based
 * native provider ({@code openssl}, from netty-tcnative). Virtual threads' blocking sockets always use the JDK's.
 */
public enum TlsProvider implements Labeled {
    JDK, OPENSSL
}
