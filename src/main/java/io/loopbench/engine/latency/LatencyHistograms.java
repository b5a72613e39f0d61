package io.loopbench.engine.latency;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Collection;
import java.util.zip.DataFormatException;

/**
 * RTT histograms: how they are made, turned into {@link Latency} figures, stored (HdrHistogram's compressed encoding
 * in Base64, the form of HdrHistogram's own log files) and merged exactly. Stateless; each histogram belongs to the
 * thread that made it.
 */
public final class LatencyHistograms {

    /** Largest RTT a histogram tracks; longer ones (impossible within a phase of RunSpec.MAX_SECONDS plus drain) are clamped. */
    static final long MAX_TRACKED_NANOS = 3_700_000_000_000L;

    private LatencyHistograms() {
    }

    /** An empty histogram of nanoseconds, 3 significant digits (each percentile exact to 0.1 %). */
    public static Histogram create() {
        return create(3);
    }

    /** An empty histogram of nanoseconds to {@code significantDigits} (2: each percentile exact to 1 %). */
    public static Histogram create(int significantDigits) {
        return new Histogram(MAX_TRACKED_NANOS, significantDigits);
    }

    /** Records one RTT, clamped to what a histogram tracks. */
    public static void record(AbstractHistogram h, long rttNanos) {
        h.recordValue(Math.min(Math.max(rttNanos, 1), MAX_TRACKED_NANOS));
    }

    /** Records {@code count} RTTs of one value, clamped likewise. */
    public static void record(AbstractHistogram h, long rttNanos, long count) {
        h.recordValueWithCount(Math.min(Math.max(rttNanos, 1), MAX_TRACKED_NANOS), count);
    }

    public static Histogram merged(Collection<Histogram> parts) {
        Histogram all = create();
        parts.forEach(all::add);
        return all;
    }

    /** The figures of a histogram of nanoseconds, in microseconds. */
    public static Latency latency(LatencyMode mode, Histogram h) {
        return new Latency(mode, h.getTotalCount(), micros(h.getValueAtPercentile(50)),
                micros(h.getValueAtPercentile(90)), micros(h.getValueAtPercentile(95)),
                micros(h.getValueAtPercentile(99)), micros(h.getValueAtPercentile(99.9)), micros(h.getMaxValue()),
                h.getTotalCount() == 0 ? 0 : h.getMean() / 1000.0);
    }

    /** HdrHistogram's compressed encoding, Base64. */
    public static String encode(AbstractHistogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    /** The histogram {@link #encode} wrote. */
    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not an HdrHistogram in compressed encoding: " + e.getMessage(), e);
        }
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }
}
