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
 */
public record Fairness(int clients, long minMessages, long maxMessages, double jainIndex) {

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
