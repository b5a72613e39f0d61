/**
 * Round-trip times: the HdrHistograms every client records into, the {@link io.loopbench.engine.latency.Latency}
 * figures they give, and their stored form, which merges exactly across repetitions, runs and hosts.
 *
 * <p>Threads: during a phase each histogram is written by one thread only, the client thread it belongs to; the
 * repetition's thread merges and reads them after the phase's barrier. The records are immutable.
 */
package io.loopbench.engine.latency;
