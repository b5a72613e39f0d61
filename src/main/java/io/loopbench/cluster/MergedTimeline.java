package io.loopbench.cluster;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.timeline.Timeline;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/**
 * The client agents' measured phases over time, as one: interval i of the merged timeline is interval i of every
 * client agent's own measured phase (each from its own start, so aligned to within the start skew). Round trips and
 * the processes' marks are added up, the rate is the sum of each agent's own (as the merged result's), and the
 * percentiles are those of every RTT the agents recorded in that interval (their interval histograms added). The
 * warm-ups are left out: each agent warmed up on its own. The marks are the client agents' processes'; a server's
 * agent without clients has no timeline.
 */
final class MergedTimeline {

    private MergedTimeline() {
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
        double step = first.intervalMillis() / 1000.0;
        List<Double> start = new ArrayList<>();
        List<Double> seconds = new ArrayList<>();
        List<Long> roundTrips = new ArrayList<>();
        List<Double> rate = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> max = new ArrayList<>();
        List<Integer> gc = new ArrayList<>();
        List<Double> gcPause = new ArrayList<>();
        List<Integer> compilations = new ArrayList<>();
        List<Double> compileMillis = new ArrayList<>();
        List<Integer> deoptimizations = new ArrayList<>();
        List<Long> late = open ? new ArrayList<>() : null;
        List<Long> dropped = open ? new ArrayList<>() : null;
        for (int i = 0; i < n; i++) {
            Histogram rtt = LatencyHistograms.create();
            double length = 0;
            long trips = 0;
            double perSecond = 0;
            int collections = 0;
            double pause = 0;
            int compiled = 0;
            double compiling = 0;
            int deoptimized = 0;
            long lateHere = 0;
            long droppedHere = 0;
            for (AgentPart p : withClients) {
                Timeline t = p.timeline();
                int at = t.warmupIntervals() + i;
                if (at >= t.size()) {
                    continue;
                }
                rtt.add(LatencyHistograms.decode(p.intervalRtts().get(i)));
                length = Math.max(length, t.seconds().get(at));
                trips += t.roundTrips().get(at);
                perSecond += t.roundTripsPerSecond().get(at);
                collections += t.gcCollections().get(at);
                pause += t.gcPauseMillis().get(at);
                compiled += t.compilations().get(at);
                compiling += t.compileMillis().get(at);
                deoptimized += t.deoptimizations().get(at);
                if (open && t.lateMessages() != null) {
                    lateHere += t.lateMessages().get(at);
                    droppedHere += t.droppedMessages().get(at);
                }
            }
            boolean any = rtt.getTotalCount() > 0;
            start.add(Math.round(i * step * 1e6) / 1e6);
            seconds.add(length);
            roundTrips.add(trips);
            rate.add(Math.round(perSecond * 10) / 10.0);
            p50.add(any ? rtt.getValueAtPercentile(50) / 1000.0 : 0);
            p99.add(any ? rtt.getValueAtPercentile(99) / 1000.0 : 0);
            max.add(any ? rtt.getMaxValue() / 1000.0 : 0);
            gc.add(collections);
            gcPause.add(Math.round(pause * 1000) / 1000.0);
            compilations.add(compiled);
            compileMillis.add(Math.round(compiling * 1000) / 1000.0);
            deoptimizations.add(deoptimized);
            if (open) {
                late.add(lateHere);
                dropped.add(droppedHere);
            }
        }
        return new Timeline(first.intervalMillis(), 0, start, seconds, roundTrips, rate, p50, p99, max, gc, gcPause,
                compilations, compileMillis, deoptimizations, late, dropped);
    }
}
