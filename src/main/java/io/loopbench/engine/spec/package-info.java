/**
 * What a measurement runs: {@link io.loopbench.engine.spec.RunSpec}, its defaults and its rules (every broken rule
 * reported at once, as {@link io.loopbench.engine.spec.Violation}s), and the enums its fields take, each known by one
 * lowercase label in JSON, on the command line and in reports.
 *
 * <p>Threads: immutable records and enums; safe on any thread.
 */
package io.loopbench.engine.spec;
