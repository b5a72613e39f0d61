package io.loopbench.worker;

import io.loopbench.engine.spec.RunSpec;

/**
 * What the service asks of one worker: measure this spec (one repetition, its transport resolved). Immutable.
 *
 * @param version {@link WorkerProtocol#VERSION} of the service that wrote it; a worker of another version refuses it
 * @param spec    the spec to measure
 */
public record WorkerRequest(int version, RunSpec spec) {
}
