package io.loopbench.engine.message;

import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * arknet's message layout: bytes 0–2 ASCII {@code ANB}, byte 3 the phase tag (0 warm-up, 1 measured), bytes 4–7 the
 * client id and 8–15 the per-client sequence number (both big-endian), then byte {@code i} =
 * {@code (sequence + 17·i + 31·id) mod 256} up to the end.
 *
 * <p>Because 17 is odd, that body is always a window of one fixed 256-periodic pattern {@code P[j] = 17·j mod 256}
 * starting at offset {@code k = (sequence + 31·id)·17⁻¹ mod 256}; writing and checking a body is thus one bulk copy
 * from, or one comparison ({@link Bodies}) against, that pattern, with no per-slot copy of what was sent. Immutable
 * and thread-safe.
 */
public final class MessageFormat {

    public static final int HEADER_BYTES = 16;
    /** The largest message: the largest UDP payload over IPv4. */
    public static final int MAX_BYTES = 65_507;
    public static final int MAGIC = ('A' << 16) | ('N' << 8) | 'B';
    public static final byte WARMUP_TAG = 0;
    public static final byte MEASURED_TAG = 1;

    /** The multiplicative inverse of 17 modulo 256 (17 × 241 = 4097 = 16·256 + 1). */
    private static final int INVERSE_OF_17 = 241;
    /** Long enough for any body at any starting offset; written from the array (a ByteBuf source would make
     *  Netty's adaptive buffers allocate a NIO view per copy), compared through {@link Bodies}' views of it. */
    private static final byte[] PATTERN_BYTES = new byte[MAX_BYTES + 256];

    static {
        for (int j = 0; j < PATTERN_BYTES.length; j++) {
            PATTERN_BYTES[j] = (byte) (17 * j);
        }
    }

    private MessageFormat() {
    }

    /**
     * Writes one whole message of {@code payloadBytes} bytes at the buffer's writer index: its header as two longs
     * (the magic, tag and client id; the sequence), then its body, three writes rather than five per message.
     */
    public static void write(ByteBuf out, byte tag, int clientId, long sequence, int payloadBytes) {
        out.writeLong((long) MAGIC << 40 | (long) (tag & 0xFF) << 32 | (clientId & 0xFFFFFFFFL));
        out.writeLong(sequence);
        out.writeBytes(PATTERN_BYTES, patternOffset(clientId, sequence) + HEADER_BYTES, payloadBytes - HEADER_BYTES);
    }

    /**
     * Whether the message starting at {@code index} has the magic and a known phase tag (0 or 1). The tag is checked
     * without a branch per value, so that the measured phase's tag takes no path the warm-up's did not.
     */
    public static boolean hasValidHeader(ByteBuf m, int index) {
        int word = m.getInt(index); // the magic and the tag in one read
        return word >>> 8 == MAGIC & (word & 0xFE) == 0;
    }

    /**
     * The first 8 bytes of the message at {@code index} (its magic, tag and client id), in one read: a client reads
     * them once per echo and takes each field from the result ({@link #validHead}, {@link #tag(long)}).
     */
    public static long head(ByteBuf m, int index) {
        return m.getLong(index);
    }

    /** Whether a message's {@link #head} has the magic, a known phase tag (0 or 1) and {@code clientId}, branch-free. */
    public static boolean validHead(long head, int clientId) {
        return (int) (head >>> 40) == MAGIC & (head >>> 32 & 0xFE) == 0 & (int) head == clientId;
    }

    /** The phase tag of a message's {@link #head}. */
    public static byte tag(long head) {
        return (byte) (head >>> 32);
    }

    public static int clientId(ByteBuf m, int index) {
        return m.getInt(index + 4);
    }

    public static long sequence(ByteBuf m, int index) {
        return m.getLong(index + 8);
    }

    /**
     * The check of every body of one message size: one {@link ByteBuffer#mismatch} (which the JDK vectorises) of the
     * received bytes against a view of the pattern made once per starting offset, instead of a read per 8 bytes
     * through ByteBuf accessors. The received bytes are seen through the buffer's internal NIO view, which Netty
     * keeps per buffer, so that a check allocates nothing. Its views are never moved after construction, so that
     * one instance per message size serves every client of the JVM ({@link #of}); the buffers checked must be
     * confined to the calling thread, as Netty's internal views are.
     */
    public static final class Bodies {

        /** One per message size used in this JVM: 256 views each, not 256 per client. */
        private static final Map<Integer, Bodies> BY_SIZE = new ConcurrentHashMap<>();

        private final int bodyBytes;
        private final ByteBuffer[] views = new ByteBuffer[256];

        /** The check of bodies of messages of {@code payloadBytes} bytes. */
        public static Bodies of(int payloadBytes) {
            return BY_SIZE.computeIfAbsent(payloadBytes, Bodies::new);
        }

        private Bodies(int payloadBytes) {
            this.bodyBytes = payloadBytes - HEADER_BYTES;
            for (int k = 0; k < views.length; k++) {
                views[k] = ByteBuffer.wrap(PATTERN_BYTES, k + HEADER_BYTES, bodyBytes).slice();
            }
        }

        /** Whether the body of the message at {@code index} is exactly the pattern for this client and sequence. */
        public boolean valid(ByteBuf m, int index, int clientId, long sequence) {
            int from = index + HEADER_BYTES;
            ByteBuffer body = m.nioBufferCount() == 1 ? m.internalNioBuffer(from, bodyBytes)
                    : m.nioBuffer(from, bodyBytes);
            return body.mismatch(views[patternOffset(clientId, sequence)]) < 0;
        }
    }

    /** Byte {@code i} of the message as arknet defines it; for tests and documentation. */
    public static byte expectedByte(int clientId, long sequence, int i) {
        return (byte) (sequence + 17L * i + 31L * clientId);
    }

    private static int patternOffset(int clientId, long sequence) {
        int base = (int) ((sequence + 31L * clientId) & 0xFF);
        return (base * INVERSE_OF_17) & 0xFF;
    }
}
