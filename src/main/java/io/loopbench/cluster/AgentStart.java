package io.loopbench.cluster;

/**
 * When one agent started, as the start barrier measured it.
 *
 * @param member      the agent
 * @param offset      its clock's offset, as estimated before the start
 * @param lateNanos   its start on the coordinator's timeline minus the instant all were told (negative: early, which
 *                    only the offset's uncertainty can make it look)
 * @param noticeNanos the instant minus when its order arrived, on its own clock: the notice it had (negative: the
 *                    order came after the instant); null in results stored before it was recorded
 */
public record AgentStart(String member, ClockOffset offset, long lateNanos, Long noticeNanos) {
}
