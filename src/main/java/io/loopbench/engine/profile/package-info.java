/**
 * Where a measured phase's CPU time goes: {@link io.loopbench.engine.profile.CpuProfiler} samples the process
 * (async-profiler, else the flight recorder), {@link io.loopbench.engine.profile.CallTree} builds and merges call
 * trees, {@link io.loopbench.engine.profile.Layer} names the layer each sample's time belongs to, and
 * {@link io.loopbench.engine.profile.CpuProfile} is the stored result.
 *
 * <p>Threads: a profiler session and a call tree belong to the thread that made them; profiles are immutable.
 */
package io.loopbench.engine.profile;
