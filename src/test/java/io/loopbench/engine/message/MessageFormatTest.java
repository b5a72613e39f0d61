package io.loopbench.engine.message;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class MessageFormatTest {

    @ParameterizedTest
    @CsvSource({"0,0,16", "3,1,64", "15,255,1024", "1023,123456789012,16384", "7,-1,65507"})
    void writesArknetsLayoutByteForByte(int id, long seq, int size) {
        ByteBuf b = Unpooled.buffer(size);
        MessageFormat.write(b, MessageFormat.MEASURED_TAG, id, seq, size);
        assertThat(b.readableBytes()).isEqualTo(size);
        assertThat(new String(new byte[] {b.getByte(0), b.getByte(1), b.getByte(2)})).isEqualTo("ANB");
        assertThat(b.getByte(3)).isEqualTo(MessageFormat.MEASURED_TAG);
        assertThat(b.getInt(4)).isEqualTo(id);
        assertThat(b.getLong(8)).isEqualTo(seq);
        for (int i = MessageFormat.HEADER_BYTES; i < size; i++) {
            // arknet: byte i = (sequence + i·17 + id·31) mod 256, computed independently here
            assertThat(b.getByte(i)).as("byte %d", i).isEqualTo((byte) ((seq + i * 17L + id * 31L) % 256));
        }
        assertThat(MessageFormat.hasValidHeader(b, 0)).isTrue();
        assertThat(MessageFormat.Bodies.of(size).valid(b, 0, id, seq)).isTrue();
        if (size > MessageFormat.HEADER_BYTES) {
            assertThat(MessageFormat.Bodies.of(size).valid(b, 0, id, seq + 1)).isFalse();
        }
    }

    @ParameterizedTest
    @CsvSource({"16", "17", "1000", "1023"})
    void anyAlteredByteIsDetected(int flipAt) {
        ByteBuf b = Unpooled.buffer(1024);
        MessageFormat.write(b, MessageFormat.WARMUP_TAG, 5, 99, 1024);
        b.setByte(flipAt, b.getByte(flipAt) ^ 1);
        assertThat(MessageFormat.Bodies.of(1024).valid(b, 0, 5, 99)).isFalse();
    }

    /** The check reads through Netty's views: a direct pooled buffer's internal view, a composite's copy. */
    @ParameterizedTest
    @CsvSource({"direct", "composite"})
    void bodiesAreCheckedWhereverTheMessageSitsInTheBuffer(String kind) {
        ByteBuf b = ByteBufAllocator.DEFAULT.ioBuffer(3 * 1024);
        try {
            for (int seq = 0; seq < 3; seq++) {
                MessageFormat.write(b, MessageFormat.MEASURED_TAG, 9, seq, 1024);
            }
            ByteBuf checked = kind.equals("direct") ? b
                    : Unpooled.wrappedBuffer(b.retainedSlice(0, 1500), b.retainedSlice(1500, 3 * 1024 - 1500));
            var bodies = MessageFormat.Bodies.of(1024);
            for (int seq = 0; seq < 3; seq++) {
                assertThat(bodies.valid(checked, seq * 1024, 9, seq)).as("sequence %d", seq).isTrue();
                assertThat(bodies.valid(checked, seq * 1024, 9, seq + 1)).isFalse();
            }
            checked.setByte(2 * 1024 + 700, checked.getByte(2 * 1024 + 700) ^ 0x40);
            assertThat(bodies.valid(checked, 1024, 9, 1)).isTrue();
            assertThat(bodies.valid(checked, 2 * 1024, 9, 2)).isFalse();
            if (checked != b) {
                checked.release();
            }
        } finally {
            b.release();
        }
    }

    @ParameterizedTest
    @CsvSource({"0,X", "3,9"})
    void badMagicOrTagIsNotAValidHeader(int at, char value) {
        ByteBuf b = Unpooled.buffer(64);
        MessageFormat.write(b, MessageFormat.MEASURED_TAG, 1, 1, 64);
        assertThat(MessageFormat.hasValidHeader(b, 0)).isTrue();
        assertThat(MessageFormat.validHead(MessageFormat.head(b, 0), 1)).isTrue();
        b.setByte(at, value);
        assertThat(MessageFormat.hasValidHeader(b, 0)).isFalse();
        assertThat(MessageFormat.validHead(MessageFormat.head(b, 0), 1)).isFalse();
    }

    /** The header read as one long gives each field as the byte-wise layout has it, for every tag and any id. */
    @ParameterizedTest
    @CsvSource({"0,0", "1,0", "0,7", "1,-1", "1,2147483647", "0,-2147483648"})
    void theHeadReadAsOneLongHoldsTheTagAndTheClientId(byte tag, int id) {
        ByteBuf b = Unpooled.buffer(64);
        MessageFormat.write(b, tag, id, 42, 64);

        long head = MessageFormat.head(b, 0);

        assertThat(b.getUnsignedMedium(0)).isEqualTo(MessageFormat.MAGIC);
        assertThat(b.getByte(3)).isEqualTo(tag);
        assertThat(b.getInt(4)).isEqualTo(id);
        assertThat(MessageFormat.sequence(b, 0)).isEqualTo(42);
        assertThat(MessageFormat.tag(head)).isEqualTo(tag);
        assertThat(MessageFormat.validHead(head, id)).isTrue();
        assertThat(MessageFormat.validHead(head, id + 1)).isFalse();
        b.setByte(3, 2);
        assertThat(MessageFormat.validHead(MessageFormat.head(b, 0), id)).isFalse();
    }
}
