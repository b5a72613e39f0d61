package io.loopbench.engine;

import java.util.List;
import java.util.Locale;

/**
 * The clients of a layout that puts some on their server end's event-loop thread and others not, apart: an echo on
 * one thread never crosses threads, so the two groups can be served very differently, and one throughput and one p99
 * blend them.
 *
 * @param sameThread  the clients whose server end runs on their own thread
 * @param otherThread the clients whose server end runs on another thread
 */
public record ClientPopulations(Population sameThread, Population otherThread) {

    /**
     * One group of clients.
     *
     * @param clients     how many
     * @param messages    their validated echoes in the measured phase, summed
     * @param minMessages fewest of any one of them
     * @param maxMessages most of any one of them
     * @param meanRttUs   their mean RTT as the window kept full gives it (clients × window × phase ÷ messages), µs;
     *                    null where the window is not kept full (open load, batch RTTs) or without echoes
     * @param p99Us       the 99th percentile of their RTTs (from the intended send time under open load), µs; null
     *                    without echoes
     */
    public record Population(int clients, long messages, long minMessages, long maxMessages, Double meanRttUs,
                             Double p99Us) {

        /** Validated echoes per client of this group. */
        public double perClient() {
            return (double) messages / clients;
        }

        static Population of(long[] perClient, List<Boolean> sameThread, boolean same, Integer window,
                             double elapsedSeconds, Double p99Us) {
            int n = 0;
            long sum = 0;
            long min = Long.MAX_VALUE;
            long max = 0;
            for (int i = 0; i < perClient.length; i++) {
                if (sameThread.get(i) == same) {
                    n++;
                    sum += perClient[i];
                    min = Math.min(min, perClient[i]);
                    max = Math.max(max, perClient[i]);
                }
            }
            Double meanRtt = window == null || sum == 0 ? null : n * (double) window * elapsedSeconds / sum * 1e6;
            return new Population(n, sum, min, max, meanRtt, p99Us);
        }
    }

    /**
     * The two groups, or null when the layout does not split them (every client on its server end's thread, or none,
     * or unknown).
     *
     * @param perClient  each client's validated echoes, in order
     * @param sameThread each client's {@code EchoPair.sameThread()}, in order; null where unknown
     * @param window     messages each client keeps in flight, when it keeps the window full (closed load, per-message
     *                   RTTs); null otherwise
     * @param sameP99Us  the p99 of the clients on their server end's thread, µs; null where unknown
     * @param otherP99Us the others' p99, µs; null where unknown
     */
    static ClientPopulations of(long[] perClient, List<Boolean> sameThread, Integer window, double elapsedSeconds,
                                Double sameP99Us, Double otherP99Us) {
        if (sameThread == null || sameThread.size() != perClient.length || !sameThread.contains(true)
                || !sameThread.contains(false)) {
            return null;
        }
        return new ClientPopulations(Population.of(perClient, sameThread, true, window, elapsedSeconds, sameP99Us),
                Population.of(perClient, sameThread, false, window, elapsedSeconds, otherP99Us));
    }

    /**
     * "the 2 clients on their server end's thread completed 3.10× the echoes per client of the 2 others (p99 150 µs
     * against 900 µs; mean RTT 120 µs against 372 µs)".
     */
    public String words() {
        double ratio = otherThread.messages() == 0 ? Double.POSITIVE_INFINITY
                : sameThread.perClient() / otherThread.perClient();
        List<String> rtts = new java.util.ArrayList<>();
        if (sameThread.p99Us() != null && otherThread.p99Us() != null) {
            rtts.add(String.format(Locale.ROOT, "p99 %,.0f µs against %,.0f µs", sameThread.p99Us(),
                    otherThread.p99Us()));
        }
        if (sameThread.meanRttUs() != null && otherThread.meanRttUs() != null) {
            rtts.add(String.format(Locale.ROOT, "mean RTT %,.0f µs against %,.0f µs", sameThread.meanRttUs(),
                    otherThread.meanRttUs()));
        }
        String rtt = rtts.isEmpty() ? "" : " (" + String.join("; ", rtts) + ")";
        return String.format(Locale.ROOT, "the %d client%s on their server end's thread completed %s the echoes per "
                        + "client of the %d other%s%s", sameThread.clients(), sameThread.clients() == 1 ? "" : "s",
                Double.isInfinite(ratio) ? "all" : String.format(Locale.ROOT, "%.2f×", ratio), otherThread.clients(),
                otherThread.clients() == 1 ? "" : "s", rtt);
    }
}
