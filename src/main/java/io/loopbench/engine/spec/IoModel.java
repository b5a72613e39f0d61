package io.loopbench.engine.spec;

/** Event-loop layout: {@code shared} is one group of ioThreads loops used by every channel; {@code sharded} is ioThreads single-thread loops, with client i and its server peer pinned to shard i mod ioThreads. */
public enum IoModel implements Labeled {
    SHARED, SHARDED
}
