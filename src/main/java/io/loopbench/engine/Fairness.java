package io.loopbench.engine;

/**
 * How evenly the clients shared the measured phase: validated echoes per client connection (UDP: per client socket).
 * A client that completed under a tenth of the mean was starved, and its repetition fails.
 *
 * @param clients     client connections counted
 * @param minMessages fewest validated echoes of any one client
 * @param maxMessages most validated echoes of any one client
 * @param jainIndex   Jain's fairness index (Σx)² / (n·Σx²): 1 when every client completed the same number, 1/n
 *                    when one client did everything
 * @param populations the clients on their server end's thread and the others, apart, where the layout put some on
 *                    it and others not; null otherwise (and in results stored before)
 */
public record Fairness(int clients, long minMessages, long maxMessages, double jainIndex,
                       ClientPopulations populations) {

    /** Jain's index under this makes a repetition uneven (a warning). */
    public static final double MIN_JAIN_INDEX = 0.9;
    /** The busiest client completing over this many times the quietest's echoes makes it uneven too. */
    public static final double MAX_SPREAD = 2;

    public Fairness(int clients, long minMessages, long maxMessages, double jainIndex) {
        this(clients, minMessages, maxMessages, jainIndex, null);
    }

    /** The same figures with the clients' populations. */
    Fairness withPopulations(ClientPopulations p) {
        return new Fairness(clients, minMessages, maxMessages, jainIndex, p);
    }

    /**
     * The warning of a repetition whose clients were served unequally — Jain's index under {@link #MIN_JAIN_INDEX}, or
     * the busiest client over {@link #MAX_SPREAD} times the quietest — since its one throughput and one p99 then
     * blend two populations of clients, named apart where the layout split them by thread; null when even (always,
     * with one client).
     */
    public String warning() {
        if (clients < 2 || jainIndex >= MIN_JAIN_INDEX && maxMessages <= MAX_SPREAD * minMessages) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "uneven clients: the busiest completed %,d validated echoes, "
                        + "the quietest %,d (%s), Jain's index %.3f: one throughput and one p99 blend clients served "
                        + "unequally%s", maxMessages, minMessages,
                minMessages == 0 ? "none" : String.format(java.util.Locale.ROOT, "%.1f×", (double) maxMessages
                        / minMessages), jainIndex, populations == null ? "" : ": " + populations.words());
    }

    static Fairness of(long[] perClient) {
        long min = Long.MAX_VALUE;
        long max = 0;
        double sum = 0;
        double squares = 0;
        for (long x : perClient) {
            min = Math.min(min, x);
            max = Math.max(max, x);
            sum += x;
            squares += (double) x * x;
        }
        return of(perClient.length, perClient.length == 0 ? 0 : min, max, sum, squares);
    }

    /** From the clients' count, fewest, most, sum and sum of squares of their validated echoes. */
    public static Fairness of(int clients, long minMessages, long maxMessages, double sum, double squares) {
        return new Fairness(clients, minMessages, maxMessages, squares == 0 ? 0 : sum * sum / (clients * squares));
    }

    /**
     * The sum of squares of the clients' validated echoes, given their sum (the phase's messages), as Jain's index
     * keeps it: what merging several parts' fairness exactly needs.
     */
    public double sumOfSquares(double sum) {
        return jainIndex == 0 ? 0 : sum * sum / (clients * jainIndex);
    }

}
