package io.loopbench.engine.protocol;

/**
 * What a TLS client negotiated: the provider's label ({@code jdk} or {@code openssl}), the protocol version (e.g.
 * {@code TLSv1.3}) and the cipher suite, as its engine's session reports them after the handshake. Immutable.
 */
public record TlsSession(String provider, String protocol, String cipherSuite) {
}
