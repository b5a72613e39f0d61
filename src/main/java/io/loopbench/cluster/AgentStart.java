package io.loopbench.cluster;

/**
 * When one agent started, as the start barrier measured it.
 *
 * @param member     the agent
 * @param offset     its clock's offset, as estimated before the start
 * @param lateNanos  its start on the coordinator's timeline minus the instant all were told (negative: early, which
 *                   only the offset's uncertainty can make it look)
 */
public record AgentStart(String member, ClockOffset offset, long lateNanos) {
}
