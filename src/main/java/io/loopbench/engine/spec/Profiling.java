package io.loopbench.engine.spec;

/**
 * Whether each measured phase is profiled (the spec's {@code profiling}): {@code cpu} (the default) samples the process's CPU time with
 * async-profiler, else the flight recorder; {@code off} takes no profile.
 */
public enum Profiling implements Labeled {
    CPU, OFF
}
