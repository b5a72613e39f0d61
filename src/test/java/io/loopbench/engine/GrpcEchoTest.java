package io.loopbench.engine;

import io.loopbench.engine.offload.OffloadUse;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import io.loopbench.engine.protocol.grpc.Grpc;
import io.loopbench.engine.protocol.grpc.GrpcMethods;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.netty.DisposableChannel;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * grpc: each message a loopbench.Echo message — a unary call each, or on one bidirectional stream per client — on
 * grpc-java's Netty transport over the repetition's own loops, each echo validated; its calls run where the offload
 * says, each counted as handed to its executor; an answer that is not the echo (altered, another status, not an
 * EchoMessage) is a content error; the protocol runs on the netty execution only.
 */
class GrpcEchoTest {

    @ParameterizedTest(name = "{0}, {1} B, {2} clients × window {3}, offload {4}")
    @CsvSource({"unary, 256, 4, 4, loop", "stream, 256, 4, 4, loop", "unary, 40000, 2, 16, executor",
            "stream, 64, 1, 1, grpc-default", "unary, 64, 2, 8, grpc-default", "stream, 1024, 2, 16, virtual-threads"})
    void everyMessageIsEchoedAndValidated(String method, int payload, int clients, int window, String offload) {
        Offload where = Labeled.parse(Offload.class, offload);
        RunSpec spec = EngineTestSupport.quick().protocol(Protocol.GRPC).grpcMethod(Labeled.parse(GrpcMethod.class,
                method)).payloadBytes(payload).clients(clients).window(window).offload(where).build();

        RepetitionResult r = EngineTestSupport.validated(spec.validated());

        assertThat(r.checks().errors().orderErrors()).isZero();
        assertThat(r.setup().http2()).as("grpc-java's own HTTP/2 settings").isNotNull();
        assertThat(r.setup().http2().initialWindowSize()).isEqualTo(1 << 20);
        assertThat(r.setup().tcpNoDelay()).isTrue();
        assertThat(r.setup().serverChannel()).endsWith("ServerSocketChannel");
        assertThat(r.setup().clientChannel()).endsWith("SocketChannel").doesNotContain("Server");
        assertThat(r.setup().connectionsOnOneThread()).as("one loop thread: every client beside its server end")
                .isEqualTo(clients);
        OffloadUse use = r.resources().offloadUse();
        if (where == Offload.LOOP) {
            assertThat(use).as("nothing offloaded, no work").isNull();
        } else {
            assertThat(use.queuePeak()).as("calls handed to the executor were counted").isPositive();
        }
    }

    @ParameterizedTest(name = "grpcs, {0}, {1}")
    @CsvSource({"jdk, unary", "auto, stream"})
    void grpcsAgreesOnH2ByAlpnOverTlsAndEchoes(String provider, String method) {
        RunSpec spec = EngineTestSupport.quick().protocol(Protocol.GRPCS).payloadBytes(40_000).clients(2).window(16)
                .grpcMethod(Labeled.parse(GrpcMethod.class, method))
                .tlsProvider(Labeled.parse(TlsProvider.class, provider)).build();

        RepetitionResult r = EngineTestSupport.validated(spec.validated());

        assertThat(r.setup().tls()).as("the client's handshake, recorded").isNotNull();
        assertThat(r.setup().tls().protocol()).startsWith("TLSv1.");
        assertThat(r.setup().tls().provider()).isEqualTo(provider.equals("jdk") ? "jdk"
                : io.loopbench.engine.protocol.tls.Tls.openSslUnavailable() == null ? "openssl" : "jdk");
    }

    /**
     * Nothing a gRPC repetition creates outlives it: its loops, sockets, offload threads at once; grpc-java's shared
     * default executor and its timer once grpc-java's holder ends them, a second after their last user let go.
     */
    @Test
    void repetitionsLeaveNoThreadOrSocketBehind() throws Exception {
        EngineTestSupport.measure(EngineTestSupport.quick().protocol(Protocol.GRPC).build()).run();
        long sockets = EngineTestSupport.openSockets();
        for (Offload offload : Offload.values()) {
            for (GrpcMethod method : GrpcMethod.values()) {
                RunSpec spec = EngineTestSupport.quick().protocol(Protocol.GRPC).grpcMethod(method).offload(offload)
                        .offloadThreads(2).warmupSeconds(0.0).seconds(0.1).build();

                RepetitionResult r = EngineTestSupport.measure(spec.validated()).run().repetitions().getFirst();

                assertThat(r.checks().errors().total()).as(r.error()).isZero();
                assertThat(EngineTestSupport.loopThreads()).as("threads after %s %s", method, offload).isZero();
                assertThat(EngineTestSupport.openSockets()).as("sockets after %s %s", method, offload)
                        .isEqualTo(sockets);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!grpcThreads().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(grpcThreads()).as("grpc-java's threads 30 s after the last repetition").isEmpty();
    }

    private static List<String> grpcThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("grpc-")).toList();
    }

    /** How the test's server damages the {@value #NTH}th unary call's answer. */
    enum Damage { ALTERED, WRONG_STATUS, MALFORMED }

    private static final int NTH = 100;

    @ParameterizedTest(name = "{0}")
    @EnumSource(Damage.class)
    void aDamagedAnswerIsAContentErrorNotAnEcho(Damage damage) {
        MultiThreadIoEventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        ChannelGroup accepted = new DefaultChannelGroup(ImmediateEventExecutor.INSTANCE);
        DisposableChannel server = new Grpc(GrpcMethod.UNARY, null).bind(loops, new InetSocketAddress("127.0.0.1", 0),
                accepted, c -> { }, damaging(damage), NettyServerBuilder::directExecutor);
        try {
            RunSpec spec = EngineTestSupport.quick().protocol(Protocol.GRPC).clients(1).window(4)
                    .warmupSeconds(0.0).seconds(0.3)
                    .target("127.0.0.1:" + ((InetSocketAddress) server.address()).getPort()).build();

            RepetitionResult r = EngineTestSupport.measure(spec.validated()).run().repetitions().getFirst();

            assertThat(r.ok()).as("a damaged answer must fail the repetition").isFalse();
            assertThat(r.checks().errors().contentErrors()).as(r.error()).isPositive();
            assertThat(r.throughput().messages()).as("every other call echoed").isPositive();
        } finally {
            server.disposeNow(Duration.ofSeconds(5));
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /**
     * A loopbench.Echo/Unary that answers each call with the bytes it got, but the {@value #NTH}th with a changed
     * payload byte, a status other than OK, or bytes that are not an EchoMessage. Its callbacks run on the loop.
     */
    private static ServerServiceDefinition damaging(Damage damage) {
        MethodDescriptor.Marshaller<byte[]> raw = new MethodDescriptor.Marshaller<>() {
            @Override
            public InputStream stream(byte[] value) {
                return new ByteArrayInputStream(value);
            }

            @Override
            public byte[] parse(InputStream stream) {
                try {
                    return stream.readAllBytes();
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        MethodDescriptor<byte[], byte[]> unary = GrpcMethods.UNARY.toBuilder(raw, raw).build();
        AtomicInteger calls = new AtomicInteger();
        return ServerServiceDefinition.builder(GrpcMethods.SERVICE)
                .addMethod(unary, (call, headers) -> {
                    call.request(1);
                    return new ServerCall.Listener<>() {
                        @Override
                        public void onMessage(byte[] request) {
                            boolean nth = calls.incrementAndGet() == NTH;
                            if (nth && damage == Damage.WRONG_STATUS) {
                                call.close(Status.INTERNAL.withDescription("damaged"), new Metadata());
                                return;
                            }
                            byte[] answer = request.clone();
                            if (nth && damage == Damage.ALTERED) {
                                answer[answer.length - 1] ^= 1;
                            } else if (nth && damage == Damage.MALFORMED) {
                                answer[0] = 0x12; // field 2: not an EchoMessage's one field
                            }
                            call.sendHeaders(new Metadata());
                            call.sendMessage(answer);
                            call.close(Status.OK, new Metadata());
                        }
                    };
                })
                .build();
    }

    @Test
    void otherExecutionsAndOtherProtocolsOptionsAreRefusedNamingTheField() {
        for (Execution e : new Execution[] {Execution.REACTIVE, Execution.VIRTUAL_THREADS}) {
            assertThat(RunSpec.builder().protocol(Protocol.GRPC).execution(e).window(1).build().violations())
                    .filteredOn(v -> v.field().equals("execution")).singleElement()
                    .satisfies(v -> assertThat(v.allowed()).startsWith("netty with protocol grpc"));
        }
        assertThat(RunSpec.builder().grpcMethod(GrpcMethod.STREAM).build().violations())
                .singleElement().satisfies(v -> {
                    assertThat(v.field()).isEqualTo("grpcMethod");
                    assertThat(v.allowed()).isEqualTo("unary with protocol tcp: the method is grpc's");
                });
        assertThat(RunSpec.builder().offload(Offload.GRPC_DEFAULT).build().violations())
                .singleElement().satisfies(v -> assertThat(v.field()).isEqualTo("offload"));
        assertThat(RunSpec.builder().protocol(Protocol.GRPC).offload(Offload.GRPC_DEFAULT)
                .grpcMethod(GrpcMethod.STREAM).build().violations()).isEmpty();
    }
}
