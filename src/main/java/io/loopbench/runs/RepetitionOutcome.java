package io.loopbench.runs;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.process.Environment;

/**
 * What one repetition produced, wherever it ran.
 *
 * @param repetition  its result (failed, saying why, when it could not finish)
 * @param environment the JVM that measured it; null across hosts (each agent's facts are the cluster's)
 * @param workerLog   a forked worker's stderr, its end; null elsewhere
 * @param acrossHosts what each agent did, across hosts; null elsewhere
 */
public record RepetitionOutcome(RepetitionResult repetition, Environment environment, String workerLog,
                                HostsRepetition acrossHosts) {
}
