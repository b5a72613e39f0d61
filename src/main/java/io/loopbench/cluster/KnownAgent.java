package io.loopbench.cluster;

/**
 * One agent in the coordinator's current view of the cluster.
 *
 * @param member  its name in the cluster (JGroups' logical name; an agent's host name unless told otherwise)
 * @param address the address the coordinator reaches it at (its cluster transport's, without the port)
 * @param state   {@code joining} until its facts arrive, then {@code idle} or {@code busy}
 * @param facts   what it says about itself; null while {@code joining}
 */
public record KnownAgent(String member, String address, AgentState state, MemberFacts facts) {
}
