package io.loopbench.engine.protocol.grpc;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A loopbench message as the protobuf message {@code loopbench.EchoMessage { bytes message = 1; }} (see
 * docs/grpc.proto), written and read by hand: one length-delimited field needs no protobuf runtime or generated code,
 * and any protobuf client (h2load with a framed body file, grpcurl, ghz) can still speak to the server. Serialising
 * copies the message into the field once, without taking it over (its caller releases it); parsing wraps the bytes
 * read. Bytes that are not that message fail the call with {@code INTERNAL}, as protobuf's parser does: a malformed
 * message is never an echo. Stateless.
 */
final class EchoMarshaller implements MethodDescriptor.Marshaller<ByteBuf> {

    static final EchoMarshaller INSTANCE = new EchoMarshaller();

    /** Field 1, wire type 2 (length-delimited). */
    private static final int TAG = 0x0A;

    private EchoMarshaller() {
    }

    @Override
    public InputStream stream(ByteBuf message) {
        int length = message.readableBytes();
        int head = 1 + varintBytes(length);
        byte[] out = new byte[head + length];
        out[0] = TAG;
        for (int i = 1, v = length; i < head; i++, v >>>= 7) {
            out[i] = (byte) (i < head - 1 ? (v & 0x7F) | 0x80 : v);
        }
        message.getBytes(message.readerIndex(), out, head, length);
        return new Encoded(out);
    }

    @Override
    public ByteBuf parse(InputStream stream) {
        byte[] in;
        try {
            in = stream.readAllBytes();
        } catch (IOException e) {
            throw Status.INTERNAL.withDescription("reading a message: " + e).withCause(e).asRuntimeException();
        }
        if (in.length == 0) {
            return Unpooled.EMPTY_BUFFER; // a message whose one field is empty, as protobuf writes it
        }
        int length = 0;
        int at = 1;
        for (int shift = 0; at < in.length && shift < 35; shift += 7) {
            byte b = in[at++];
            length |= (b & 0x7F) << shift;
            if (b >= 0) {
                if (in[0] != TAG || length != in.length - at) {
                    break;
                }
                return Unpooled.wrappedBuffer(in, at, length);
            }
        }
        throw Status.INTERNAL.withDescription("not a loopbench.EchoMessage: " + in.length + " bytes starting 0x"
                + Integer.toHexString(in[0] & 0xFF)).asRuntimeException();
    }

    static int varintBytes(int v) {
        return v < 1 << 7 ? 1 : v < 1 << 14 ? 2 : v < 1 << 21 ? 3 : v < 1 << 28 ? 4 : 5;
    }

    /** A serialised message: grpc-java takes its length without buffering it and drains it into its frame. */
    private static final class Encoded extends ByteArrayInputStream implements KnownLength, Drainable {

        Encoded(byte[] bytes) {
            super(bytes);
        }

        @Override
        public int drainTo(OutputStream target) throws IOException {
            int n = count - pos;
            target.write(buf, pos, n);
            pos = count;
            return n;
        }
    }
}
