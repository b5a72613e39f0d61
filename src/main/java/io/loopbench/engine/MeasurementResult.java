package io.loopbench.engine;

import io.loopbench.engine.process.Environment;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;

import java.util.List;

/**
 * A whole measurement: the effective spec, where it ran, every repetition and — only when all of them are ok — the
 * summary. A failed or cancelled measurement keeps the repetitions that finished.
 *
 * @param spec        the effective specification
 * @param transport   the concrete transport {@code auto} resolved to
 * @param environment the JVM and machine that measured
 * @param repetitions every repetition that ran, failed ones included
 * @param summary     median/min/max over repetitions; null unless ok
 * @param ok        every requested repetition ran and passed validation
 * @param error     why not, when not ok
 * @param cancelled stopped on request before every repetition ran
 */
public record MeasurementResult(
        RunSpec spec,
        Transport transport,
        Environment environment,
        List<RepetitionResult> repetitions,
        Summary summary,
        boolean ok,
        String error,
        boolean cancelled) {
}
