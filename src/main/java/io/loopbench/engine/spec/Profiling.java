package io.loopbench.engine.spec;

/**
 * Whether each measured phase is profiled (the spec's {@code profiling}): {@code cpu} samples the process's CPU time
 * with async-profiler, else the flight recorder; {@code off} (the default) takes no profile. Off by default because
 * sampling costs beyond the noise: p99 1.21× at TCP 1024/16/16 shared 1 (docs/performance.md, "Profiler cost").
 */
public enum Profiling implements Labeled {
    CPU, OFF
}
