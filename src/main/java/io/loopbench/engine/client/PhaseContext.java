package io.loopbench.engine.client;

import org.HdrHistogram.Histogram;

import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * What every client of a repetition needs to run one phase. Immutable apart from the latch; handed to each client
 * through its event loop's task queue, which publishes it safely.
 *
 * @param tag        the phase tag carried in every message of the phase
 * @param deadline   {@link System#nanoTime()} after which no new message is sent
 * @param drained    counted down once by each client when it has nothing in flight after the deadline
 * @param started    {@link System#nanoTime()} when the phase began: open load's first intended send
 * @param histograms one RTT histogram per client thread ({@link ClientIo#histogramOwner()}), written only by
 *                   that thread (warm-up too, into its own, so both phases run the same code). For open load,
 *                   RTT from each message's intended send time
 * @param uncorrectedHistograms open load: RTT from each message's actual send time, per thread; else empty
 * @param sendLagHistograms open load: actual minus intended send time, per thread; else empty
 */
public record PhaseContext(byte tag, long started, long deadline, CountDownLatch drained,
                    Map<Object, Histogram> histograms, Map<Object, Histogram> uncorrectedHistograms,
                    Map<Object, Histogram> sendLagHistograms) {
}
