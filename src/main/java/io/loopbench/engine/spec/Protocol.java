package io.loopbench.engine.spec;

/** The measured transport protocol. */
public enum Protocol implements Labeled {
    TCP, UDP
}
