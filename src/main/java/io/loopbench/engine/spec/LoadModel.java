package io.loopbench.engine.spec;

/** How clients generate load: {@code closed} (a new message the moment a slot frees) or {@code open} (messages at a fixed rate, whatever the replies; the window caps what is in flight). */
public enum LoadModel implements Labeled {
    CLOSED, OPEN
}
