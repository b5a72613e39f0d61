/**
 * Agents on a JGroups cluster, plain Java (no Spring): the one protocol stack every member runs
 * ({@link io.loopbench.cluster.ClusterStack}, from {@link io.loopbench.cluster.ClusterSettings}), its shared-secret
 * authentication ({@link io.loopbench.cluster.HmacToken}), and the two kinds of member: the
 * {@link io.loopbench.cluster.Coordinator} (the service), which lists the agents with their facts and state, and the
 * {@link io.loopbench.cluster.Agent} ({@code ./loopbench agent}), which answers it and notices when it is lost.
 * Members talk through JGroups' request dispatcher, each request one byte of kind and a JSON record
 * ({@code Wire}). {@link io.loopbench.cluster.DistributedRun} runs one repetition across hosts from a
 * {@link io.loopbench.cluster.Placement}; each agent's share of it is its {@code AgentWork}.
 *
 * <p>Threads: a member is built and closed by its owner's thread; JGroups delivers views, requests and answers on its
 * own threads, concurrently, so a member's state is held in concurrent maps and atomics, and its records are
 * immutable.
 */
package io.loopbench.cluster;
