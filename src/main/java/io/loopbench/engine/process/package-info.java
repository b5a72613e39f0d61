/**
 * The process and what it runs on: CPU, memory and GC readings, the JIT's and the collector's events from the flight recorder, and the
 * {@link io.loopbench.engine.process.Environment} recorded with every result.
 *
 * <p>Threads: the readings are stateless and JvmEvents thread-safe, so any thread may use them; the records
 * are immutable.
 */
package io.loopbench.engine.process;
