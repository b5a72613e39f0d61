package io.loopbench.engine.spec;

/** The measured transport protocol; {@code tcps} is TLS over TCP, with TCP's framing. */
public enum Protocol implements Labeled {
    TCP, UDP, TCPS
}
