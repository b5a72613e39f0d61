package io.loopbench.engine.client;

import io.loopbench.engine.timeline.IntervalRecorder;
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
 * @param recorders  one timeline recorder per client thread ({@link ClientIo#histogramOwner()}), written only by
 *                   that thread (warm-up too, into its own, so both phases run the same code): each validated echo,
 *                   its RTT — for open load, from its message's intended send time — and open load's late and
 *                   dropped messages, in intervals
 * @param uncorrectedHistograms open load: RTT from each message's actual send time, per thread; else empty
 * @param sendLagHistograms open load: actual minus intended send time, per thread; else empty
 * @param stampGapHistograms every load: from each message's send stamp to the hand-over of its bytes to the
 *                   transport, per thread (see {@code Outgoing})
 */
public record PhaseContext(byte tag, long started, long deadline, CountDownLatch drained,
                    Map<Object, IntervalRecorder> recorders, Map<Object, Histogram> uncorrectedHistograms,
                    Map<Object, Histogram> sendLagHistograms, Map<Object, Histogram> stampGapHistograms) {
}
