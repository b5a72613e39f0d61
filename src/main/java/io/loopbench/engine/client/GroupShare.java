package io.loopbench.engine.client;

/**
 * One client thread's share of a group of clients: the key of histograms that thread alone writes, kept apart per
 * group so that each group's RTTs can be merged on their own.
 *
 * @param thread the thread's own key ({@link ClientIo#histogramOwner()})
 * @param group  the group
 */
public record GroupShare(Object thread, Object group) {
}
