package io.loopbench.engine.client;

import io.loopbench.engine.latency.LatencyHistograms;
import io.loopbench.engine.message.MessageFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client's outgoing buffers: every message leaves intact and in order, and once the transport has released what it
 * sent, the buffers are reused, so that a steady run allocates none; a buffer the transport still holds is left to it.
 */
class OutgoingTest {

    /** A transport that sends on flush (keeping a copy of the bytes) and releases what it sent, unless told to hold. */
    static final class FakeIo implements ClientIo {
        final List<ByteBuf> queued = new ArrayList<>();
        final List<ByteBuf> held = new ArrayList<>();
        final ByteBuf sent = Unpooled.buffer();
        int allocations;
        boolean hold;

        @Override
        public ByteBuf allocate(int bytes) {
            allocations++;
            return Unpooled.directBuffer(bytes);
        }

        @Override
        public void write(ByteBuf message, byte tag) {
            queued.add(message);
        }

        @Override
        public void flush() {
            for (ByteBuf b : queued) {
                sent.writeBytes(b, b.readerIndex(), b.readableBytes());
                if (hold) {
                    held.add(b);
                } else {
                    b.release();
                }
            }
            queued.clear();
        }

        @Override
        public Executor executor() {
            return Runnable::run;
        }

        @Override
        public Object histogramOwner() {
            return this;
        }

        @Override
        public boolean isActive() {
            return true;
        }

        @Override
        public boolean gathers() {
            return true;
        }

        @Override
        public Cancellable schedule(Runnable task, long delayNanos) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Cancellable every(Runnable task, long periodNanos) {
            throw new UnsupportedOperationException();
        }
    }

    @ParameterizedTest(name = "gathering {0}, payload {1}, window {2}")
    @CsvSource({"true, 1024, 16", "true, 16384, 16", "false, 1024, 16", "false, 64, 64", "false, 1024, 1"})
    void steadyBatchesReuseTheirBuffersAndEveryMessageLeavesIntact(boolean gathering, int payload, int window) {
        FakeIo io = new FakeIo();
        Outgoing out = new Outgoing(io, 7, payload, window, gathering);
        long seq = 0;
        for (int batch = 0; batch < 200; batch++) {
            for (int k = 0; k < window; k++) {
                out.write(MessageFormat.MEASURED_TAG, seq++, System.nanoTime());
            }
            out.flushIfPending(null);
        }

        // the ring: the window's messages (or gathered buffers) and one more
        int ring = gathering ? (window * payload + 65535) / 65536 + 1 : window + 1;
        assertThat(io.allocations).as("buffers allocated over 200 batches").isEqualTo(ring);
        var bodies = MessageFormat.Bodies.of(payload);
        assertThat(io.sent.readableBytes()).isEqualTo(seq * payload);
        for (long s = 0; s < seq; s++) {
            int at = (int) (s * payload);
            assertThat(MessageFormat.sequence(io.sent, at)).isEqualTo(s);
            assertThat(bodies.valid(io.sent, at, 7, s)).isTrue();
        }
        out.release();
        io.sent.release();
    }

    @ParameterizedTest(name = "gathering {0}")
    @CsvSource({"true", "false"})
    void aBufferTheTransportStillHoldsIsNeitherOverwrittenNorLeaked(boolean gathering) {
        FakeIo io = new FakeIo();
        Outgoing out = new Outgoing(io, 3, 64, 4, gathering);
        io.hold = true;
        for (long seq = 0; seq < 40; seq++) {
            out.write(MessageFormat.MEASURED_TAG, seq, System.nanoTime());
            if (seq % 4 == 3) {
                out.flushIfPending(null);
            }
        }
        // what the transport holds still has the bytes it was given
        long seq = 0;
        for (ByteBuf b : io.held) {
            for (int at = b.readerIndex(); at < b.writerIndex(); at += 64) {
                assertThat(MessageFormat.sequence(b, at)).isEqualTo(seq++);
            }
        }
        assertThat(seq).isEqualTo(40);
        out.release();
        // the ring let go of every buffer: the transport's reference is the last
        assertThat(io.held).allSatisfy(b -> assertThat(b.refCnt()).isEqualTo(1));
        io.held.forEach(ByteBuf::release);
        assertThat(io.held).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        io.sent.release();
    }

    /**
     * The stamp gap is measured to the hand-over itself: messages stamped 5 ms before they are written (a stamp taken
     * too early, as a misplaced one would be) each show a gap of at least 5 ms, one per message, while messages
     * stamped as they are written show less than the time the whole batch took.
     */
    @ParameterizedTest(name = "gathering {0}")
    @CsvSource({"true", "false"})
    void eachMessagesStampGapRunsFromItsStampToTheFlushThatHandsItOver(boolean gathering) {
        FakeIo io = new FakeIo();
        Outgoing out = new Outgoing(io, 5, 64, 8, gathering);
        Histogram misplaced = LatencyHistograms.create();
        Histogram inPlace = LatencyHistograms.create();
        long early = 5_000_000;

        for (long seq = 0; seq < 8; seq++) {
            out.write(MessageFormat.MEASURED_TAG, seq, System.nanoTime() - early);
        }
        out.flushIfPending(misplaced);
        long batchStart = System.nanoTime();
        for (long seq = 8; seq < 16; seq++) {
            out.write(MessageFormat.MEASURED_TAG, seq, System.nanoTime());
        }
        out.flushIfPending(inPlace);
        long batchTook = System.nanoTime() - batchStart;
        out.flushIfPending(inPlace); // nothing pending: nothing recorded

        assertThat(misplaced.getTotalCount()).isEqualTo(8);
        assertThat(misplaced.getMinValue()).isGreaterThanOrEqualTo(misplaced.lowestEquivalentValue(early));
        assertThat(inPlace.getTotalCount()).isEqualTo(8);
        assertThat(inPlace.getMaxValue()).isLessThanOrEqualTo(inPlace.highestEquivalentValue(batchTook));
        assertThat(io.sent.readableBytes()).isEqualTo(16 * 64);
        out.release();
        io.sent.release();
    }
}
