package io.loopbench.cluster;

/**
 * When one agent started, as the start barrier measured it, and when its clients' measured phase began and stopped.
 *
 * @param member      the agent
 * @param offset      its clock's offset, as estimated before the start
 * @param lateNanos   its barrier's release on the coordinator's timeline minus the instant all were told (negative:
 *                    early, which only the offset's uncertainty can make it look)
 * @param noticeNanos the instant minus when its order arrived, on its own clock: the notice it had (negative: the
 *                    order came after the instant); null in results stored before it was recorded
 * @param phase       when its clients' measured phase began and stopped after its barrier's release, on its own clock;
 *                    null where its part did not say (no clients, failed before its phase, or stored before)
 */
public record AgentStart(String member, ClockOffset offset, long lateNanos, Long noticeNanos, PhaseSpan phase) {

    /** Its measured phase's start on the coordinator's timeline minus the instant; null without a phase span. */
    public Long phaseLateNanos() {
        return phase == null ? null : lateNanos + phase.beganNanos();
    }

    /** Its measured phase's stop on the coordinator's timeline minus the instant; null without a phase span. */
    public Long phaseStopLateNanos() {
        return phase == null ? null : lateNanos + phase.stoppedNanos();
    }

    /** This start with its agent's measured phase span. */
    AgentStart withPhase(PhaseSpan span) {
        return new AgentStart(member, offset, lateNanos, noticeNanos, span);
    }
}
