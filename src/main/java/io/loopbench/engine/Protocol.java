package io.loopbench.engine;

/** The measured transport protocol. */
public enum Protocol implements Labeled {
    TCP, UDP
}
