package io.loopbench.cluster;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.timeline.Timeline;
import io.loopbench.engine.timeline.TimelineInterval;
import org.HdrHistogram.Histogram;
import org.jgroups.Address;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The client agents' measured phases over time, as one: interval i of the merged timeline is interval i of every
 * client agent's own measured phase (each from its own start, so aligned to within the start skew). Round trips and
 * the processes' marks are added up, the rate is the sum of each agent's own (as the merged result's), and the
 * percentiles are those of every RTT the agents recorded in that interval (their interval histograms added). The
 * warm-ups are left out: each agent warmed up on its own. The marks are the client agents' processes'; a server's
 * agent without clients has no timeline. Stateless, but for {@link Live}.
 */
final class MergedTimeline {

    private MergedTimeline() {
    }

    /** One client agent's share of an interval. */
    private record Share(double seconds, long roundTrips, double roundTripsPerSecond, Histogram rtt, long late,
                         long dropped) {
    }

    /**
     * The merged timeline of the parts with clients; null when any of them has no timeline, or not its intervals'
     * RTTs (an agent of an earlier version), or when none has clients.
     */
    static Timeline of(List<AgentPart> parts) {
        List<AgentPart> withClients = parts.stream().filter(p -> p.clients() > 0).toList();
        if (withClients.isEmpty() || withClients.stream().anyMatch(p -> p.timeline() == null
                || p.intervalRtts().size() != p.timeline().size() - p.timeline().warmupIntervals())) {
            return null;
        }
        Timeline first = withClients.getFirst().timeline();
        boolean open = first.lateMessages() != null;
        int n = withClients.stream().mapToInt(p -> p.intervalRtts().size()).max().orElse(0);
        List<TimelineInterval> intervals = new ArrayList<>();
        int[] gc = new int[n];
        double[] gcPause = new double[n];
        int[] compilations = new int[n];
        double[] compileMillis = new double[n];
        int[] deoptimizations = new int[n];
        for (int i = 0; i < n; i++) {
            List<Share> shares = new ArrayList<>();
            for (AgentPart p : withClients) {
                Timeline t = p.timeline();
                int at = t.warmupIntervals() + i;
                if (at >= t.size()) {
                    continue;
                }
                shares.add(new Share(t.seconds().get(at), t.roundTrips().get(at), t.roundTripsPerSecond().get(at),
                        LatencyHistograms.decode(p.intervalRtts().get(i)),
                        open && t.lateMessages() != null ? t.lateMessages().get(at) : 0,
                        open && t.droppedMessages() != null ? t.droppedMessages().get(at) : 0));
                gc[i] += t.gcCollections().get(at);
                gcPause[i] += t.gcPauseMillis().get(at);
                compilations[i] += t.compilations().get(at);
                compileMillis[i] += t.compileMillis().get(at);
                deoptimizations[i] += t.deoptimizations().get(at);
            }
            intervals.add(interval(i, first.intervalMillis(), shares));
        }
        return Timeline.ofIntervals(first.intervalMillis(), 0, intervals, gc, gcPause, compilations, compileMillis,
                deoptimizations, open);
    }

    /** Measured interval {@code i} of the agents' shares of it, merged. */
    private static TimelineInterval interval(int i, int intervalMillis, List<Share> shares) {
        Histogram rtt = LatencyHistograms.create();
        double seconds = 0;
        long roundTrips = 0;
        double perSecond = 0;
        long late = 0;
        long dropped = 0;
        for (Share s : shares) {
            rtt.add(s.rtt());
            seconds = Math.max(seconds, s.seconds());
            roundTrips += s.roundTrips();
            perSecond += s.roundTripsPerSecond();
            late += s.late();
            dropped += s.dropped();
        }
        return TimelineInterval.of(TimelineInterval.MEASURED, Math.round(i * (double) intervalMillis * 1e3) / 1e6,
                seconds, roundTrips, Math.round(perSecond * 10) / 10.0, rtt, late, dropped);
    }

    /**
     * The merge while the phase runs: each client agent's measured intervals as they close, and each merged interval
     * handed on once every client agent has sent it, in order (without the marks, which the agents' flight recorders
     * hand over only later). Thread-safe: the agents' intervals arrive on JGroups' threads.
     */
    static final class Live {

        private final Set<Address> agents;
        private final int intervalMillis;
        private final Consumer<TimelineInterval> merged;
        private final Map<Integer, Map<Address, Share>> pending = new HashMap<>();
        private int next;

        Live(Set<Address> agents, int intervalMillis, Consumer<TimelineInterval> merged) {
            this.agents = Set.copyOf(agents);
            this.intervalMillis = intervalMillis;
            this.merged = merged;
        }

        /** Measured interval {@code index} of {@code agent}'s clients, with its RTTs; others' are ignored. */
        synchronized void add(Address agent, int index, TimelineInterval interval, Histogram rtt) {
            if (!agents.contains(agent) || index < next) {
                return;
            }
            pending.computeIfAbsent(index, k -> new HashMap<>()).put(agent, new Share(interval.seconds(),
                    interval.roundTrips(), interval.roundTripsPerSecond(), rtt, interval.lateMessages(),
                    interval.droppedMessages()));
            for (Map<Address, Share> all = pending.get(next); all != null && all.size() == agents.size();
                 all = pending.get(next)) {
                pending.remove(next);
                merged.accept(interval(next, intervalMillis, List.copyOf(all.values())));
                next++;
            }
        }
    }
}
