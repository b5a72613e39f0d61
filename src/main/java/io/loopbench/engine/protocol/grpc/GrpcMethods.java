package io.loopbench.engine.protocol.grpc;

import io.grpc.MethodDescriptor;
import io.loopbench.engine.spec.GrpcMethod;
import io.netty.buffer.ByteBuf;

/**
 * The {@code loopbench.Echo} service's two methods, both taking and returning a {@code loopbench.EchoMessage}
 * ({@link EchoMarshaller}): {@code Unary}, one message per call, and {@code Stream}, a bidirectional stream whose every
 * message is echoed on it in order. Immutable.
 */
public final class GrpcMethods {

    public static final String SERVICE = "loopbench.Echo";

    public static final MethodDescriptor<ByteBuf, ByteBuf> UNARY = method(MethodDescriptor.MethodType.UNARY, "Unary");
    public static final MethodDescriptor<ByteBuf, ByteBuf> STREAM =
            method(MethodDescriptor.MethodType.BIDI_STREAMING, "Stream");

    private GrpcMethods() {
    }

    /** The method a spec's {@code grpcMethod} names. */
    public static MethodDescriptor<ByteBuf, ByteBuf> of(GrpcMethod method) {
        return method == GrpcMethod.STREAM ? STREAM : UNARY;
    }

    private static MethodDescriptor<ByteBuf, ByteBuf> method(MethodDescriptor.MethodType type, String name) {
        return MethodDescriptor.<ByteBuf, ByteBuf>newBuilder()
                .setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(EchoMarshaller.INSTANCE)
                .setResponseMarshaller(EchoMarshaller.INSTANCE)
                .build();
    }
}
