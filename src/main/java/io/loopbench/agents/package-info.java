/**
 * The agents feature: the service as the coordinator of a JGroups cluster of agents ({@code loopbench.cluster.*},
 * {@code GET /api/agents}). The cluster itself is plain Java in {@code io.loopbench.cluster}, shared with
 * {@code ./loopbench agent}.
 *
 * <p>Threads: the directory is built at start and closed at stop by Spring; requests read it from any thread.
 */
package io.loopbench.agents;
