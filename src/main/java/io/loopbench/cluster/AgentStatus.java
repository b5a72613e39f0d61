package io.loopbench.cluster;

/**
 * An agent's facts and state as it sends them to the coordinator: in answer to the coordinator's request when either
 * joins, and of its own accord whenever its state changes.
 *
 * @param sequence increases with each status the agent sends, so that the coordinator keeps the newest whatever order
 *                 an answer and a later change arrive in
 * @param facts    what the agent says about itself
 * @param state    {@code idle} or {@code busy}
 */
public record AgentStatus(long sequence, MemberFacts facts, AgentState state) {
}
