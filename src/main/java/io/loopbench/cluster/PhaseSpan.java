package io.loopbench.cluster;

/**
 * When an agent's clients began and stopped their measured phase, on the agent's own clock, counted from the
 * instant its start barrier released them: durations on one clock, so no clock offset enters them.
 *
 * @param beganNanos   the clients were told to begin this long after the barrier released them (the repetition's
 *                     thread woke, passed its gate and started the phase)
 * @param stoppedNanos the clients were told to stop this long after the barrier released them (their drain followed)
 */
public record PhaseSpan(long beganNanos, long stoppedNanos) {
}
