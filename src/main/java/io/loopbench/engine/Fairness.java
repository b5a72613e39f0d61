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
        double jain = squares == 0 ? 0 : sum * sum / (perClient.length * squares);
        return new Fairness(perClient.length, perClient.length == 0 ? 0 : min, max, jain);
    }

}
