package io.loopbench.cluster;

/**
 * What one agent did in a repetition across hosts: a row of the per-agent table.
 *
 * @param member              the agent
 * @param server              whether it ran the echo server
 * @param clients             how many clients it ran (0: the server only)
 * @param messages            its clients' validated echoes in the measured phase; null without clients
 * @param roundTripsPerSecond its messages over its own measured phase's elapsed time; null without clients
 * @param p99Us               its clients' 99th percentile RTT, µs; null without clients or echoes
 * @param startLateNanos      its start minus the instant all were told, on the coordinator's timeline: when its
 *                            clients began their measured phase (in results stored before that was measured, when
 *                            its barrier released them); null without clients
 * @param error               why its part failed there, or null
 * @param cpuPercent          its process's CPU (user + system, every thread) over its measured phase, 100 = one
 *                            logical CPU: with clients, their phase (drain included, and its server's work too where
 *                            it runs one); the server's agent alone, from the start instant all were told to the
 *                            collection of the parts, once the clients' phase is over; null where unknown
 * @param peakRssBytes        its process's peak resident memory so far ({@code VmHWM}: since the agent started, not
 *                            this repetition alone), bytes; null where unknown (no Linux /proc)
 */
public record AgentShare(String member, boolean server, int clients, Long messages, Double roundTripsPerSecond,
                         Double p99Us, Long startLateNanos, String error, Double cpuPercent, Long peakRssBytes) {
}
