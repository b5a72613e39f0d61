package io.loopbench.engine.profile;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Building, merging and pruning call trees, and the layer each stack's time goes to. */
class CallTreeTest {

    private static final String LOOP = "[loopbench-epoll-0-1 tid=4242]";
    private static final String RUN = "io/netty/util/concurrent/SingleThreadEventExecutor$5.run;"
            + "io/netty/channel/SingleThreadIoEventLoop.run;io/netty/channel/epoll/EpollIoHandler.run";
    private static final String READ = RUN + ";io/netty/channel/epoll/AbstractEpollStreamChannel$EpollStreamUnsafe"
            + ".epollInReady;io/netty/channel/DefaultChannelPipeline.fireChannelRead";

    /** One sample per stack of each layer, as async-profiler writes them. */
    static String collapsed() {
        return String.join("\n",
                LOOP + ";" + RUN + ";io/netty/channel/epoll/Native.epollWait;epoll_wait;do_epoll_wait_[k] 5",
                LOOP + ";" + READ + ";io/loopbench/engine/netty/EchoServerHandler.channelRead;"
                        + "io/loopbench/engine/server/ServerCheck.accept;io/loopbench/engine/server/Work.run 39",
                LOOP + ";" + READ + ";io/loopbench/engine/server/ServerCheck.accept 3",
                LOOP + ";" + READ + ";io/netty/channel/AbstractChannelHandlerContext.write;"
                        + "io/netty/channel/unix/FileDescriptor.writeAddress;__GI___libc_write;"
                        + "entry_SYSCALL_64_after_hwframe_[k];tcp_sendmsg_[k];tcp_v4_rcv_[k] 20",
                LOOP + ";" + RUN + ";io/netty/channel/epoll/AbstractEpollStreamChannel$EpollStreamUnsafe.epollInReady;"
                        + "io/netty/channel/unix/FileDescriptor.readAddress;__GI_read;tcp_recvmsg_[k] 10",
                LOOP + ";" + READ + ";io/netty/handler/ssl/SslHandler.decode;io/netty/buffer/AbstractByteBuf.writeBytes"
                        + " 6",
                LOOP + ";" + READ + ";io/netty/handler/codec/http/HttpObjectDecoder.decode;"
                        + "io/netty/buffer/AbstractByteBuf.getByte 4",
                LOOP + ";" + READ + " 7",
                "[C2 CompilerThre tid=7];thread_native_entry;C2Compiler::compile_method 3",
                "[GC Thread#0 tid=8];thread_native_entry;G1ParTask::work 1",
                "[VM Thread tid=10];VMThread::run;VM_Operation::evaluate;VM_SerialCollectForAllocation::doit;"
                        + "DefNewGeneration::collect 1",
                "[Reference Handler tid=9];java/lang/ref/Reference.processPendingReferences 1");
    }

    @Test
    void everyStackGoesToTheLayerOfItsDeepestNamedFrame() {
        CallTree tree = new CallTree();
        tree.addCollapsed(collapsed());
        CpuProfile p = tree.toProfile("test", "cpu", null, 5000);

        assertThat(p.samples()).isEqualTo(100);
        assertThat(p.kernelFrames()).isTrue();
        assertThat(p.layers()).extracting(CpuProfile.LayerShare::layer, CpuProfile.LayerShare::samples)
                .startsWith(org.assertj.core.groups.Tuple.tuple(Layer.WORK, 39L),
                        org.assertj.core.groups.Tuple.tuple(Layer.KERNEL_SEND, 20L),
                        org.assertj.core.groups.Tuple.tuple(Layer.KERNEL_RECEIVE, 10L));
        assertThat(p.share(Layer.WAIT)).isEqualTo(0.05);
        assertThat(p.share(Layer.ECHO_CHECK)).isEqualTo(0.03);
        // a buffer copy inside TLS or a codec is theirs; Netty's own frames above the handlers are the pipeline's
        assertThat(p.share(Layer.TLS)).isEqualTo(0.06);
        assertThat(p.share(Layer.CODEC)).isEqualTo(0.04);
        assertThat(p.share(Layer.NETTY)).isEqualTo(0.07);
        assertThat(p.share(Layer.JIT)).isEqualTo(0.03);
        // the serial collector's collections run on the VM thread
        assertThat(p.share(Layer.GC)).isEqualTo(0.02);
        assertThat(p.share(Layer.OTHER)).isEqualTo(0.01);
        assertThat(p.layers()).hasSize(Layer.values().length);
        assertThat(p.layers().stream().mapToLong(CpuProfile.LayerShare::samples).sum()).isEqualTo(100);
    }

    @Test
    void http2FramesAreTheirOwnLayerLoopbenchsGatheringOfThemIncluded() {
        CallTree tree = new CallTree();
        tree.addCollapsed(String.join("\n",
                LOOP + ";" + READ + ";io/netty/handler/codec/http2/DefaultHttp2FrameReader.readFrame;"
                        + "io/netty/handler/codec/http2/HpackDecoder.decode 6",
                LOOP + ";" + READ + ";io/loopbench/engine/protocol/http2/Http2Messages.channelRead;"
                        + "io/netty/buffer/AbstractByteBuf.getByte 2",
                LOOP + ";" + READ + ";io/netty/handler/codec/http/HttpObjectDecoder.decode 2"));

        CpuProfile p = tree.toProfile("test", "cpu", null, 5000);

        assertThat(p.share(Layer.HTTP2)).isEqualTo(0.8);
        assertThat(p.share(Layer.CODEC)).isEqualTo(0.2);
    }

    @Test
    void grpcCallsAreTheirOwnLayerAboveHttp2sFramesAndBelowTheEchoCheck() {
        CallTree tree = new CallTree();
        tree.addCollapsed(String.join("\n",
                LOOP + ";" + READ + ";io/netty/handler/codec/http2/DefaultHttp2FrameReader.readFrame;"
                        + "io/grpc/netty/NettyServerHandler.onDataRead;io/grpc/internal/MessageDeframer.deliver 5",
                LOOP + ";" + READ + ";io/netty/handler/codec/http2/DefaultHttp2FrameReader.readFrame;"
                        + "io/grpc/internal/ClientCallImpl$ClientStreamListenerImpl.messagesAvailable;"
                        + "io/loopbench/engine/grpc/GrpcClientIo$Echoes.onMessage;"
                        + "io/loopbench/engine/client/EchoClient.echoed 3",
                LOOP + ";" + READ + ";io/netty/handler/codec/http2/HpackDecoder.decode 2"));

        CpuProfile p = tree.toProfile("test", "cpu", null, 5000);

        assertThat(p.share(Layer.GRPC)).isEqualTo(0.5);
        assertThat(p.share(Layer.ECHO_CHECK)).isEqualTo(0.3);
        assertThat(p.share(Layer.HTTP2)).isEqualTo(0.2);
    }

    @Test
    void threadsAreNamedWithoutTheirIdAndSmallOnesGoTogether() {
        CallTree tree = new CallTree();
        tree.addCollapsed(collapsed());
        tree.addCollapsed(LOOP.replace("4242", "5151") + ";" + READ + " 100");
        CpuProfile p = tree.toProfile("test", "cpu", null, 5000);

        assertThat(p.threads()).extracting(CpuProfile.ThreadShare::thread)
                .containsExactly("[loopbench-epoll-0-1]", "[C2 CompilerThre]", "[other threads]");
        CpuProfile.ThreadShare loop = p.threads().getFirst();
        assertThat(loop.samples()).isEqualTo(194);
        assertThat(loop.layers().getFirst().layer()).isEqualTo(Layer.NETTY);
        assertThat(p.threads().getLast().samples()).as("GC, VM and reference handler: under 1 %% each").isEqualTo(3);
    }

    @Test
    void theTreeAddsUpToItsSamplesAndMergesByFrame() {
        CallTree tree = new CallTree();
        tree.addCollapsed(collapsed());
        CpuProfile one = tree.toProfile("test", "cpu", null, 5000);
        assertThat(selfSum(one)).isEqualTo(100);

        CpuProfile two = ProfileSummary.merged(List.of(one, one));
        assertThat(two.samples()).isEqualTo(200);
        assertThat(selfSum(two)).isEqualTo(200);
        assertThat(two.tree()).hasSameSizeAs(one.tree());
        assertThat(ProfileSummary.merged(List.of(one, one))).as("equal by content, as a stored one read back")
                .isEqualTo(two).hasSameHashCodeAs(two);
        assertThat(two.share(Layer.WORK)).isEqualTo(one.share(Layer.WORK));
    }

    @Test
    void nodesUnderTheThresholdAreFoldedIntoTheirParent() {
        CallTree tree = new CallTree();
        tree.addCollapsed(LOOP + ";a;b;c 1000");
        tree.addCollapsed(LOOP + ";a;b;rare 2"); // 0.2 %: under the 0.5 % kept
        CpuProfile p = tree.toProfile("test", "cpu", null, 5000);

        assertThat(p.frames()).doesNotContain("rare");
        assertThat(selfSum(p)).isEqualTo(1002);
        int b = p.frames().indexOf("b");
        int[] t = p.tree();
        for (int i = 0; i < t.length / 3; i++) {
            if (t[3 * i + 1] == b) {
                assertThat(t[3 * i + 2]).as("b's self samples: its folded child's").isEqualTo(2);
            }
        }
        assertThat(p.share(Layer.OTHER)).as("layers count every sample, before pruning").isEqualTo(1.0);
    }

    static long selfSum(CpuProfile p) {
        int[] t = p.tree();
        long sum = 0;
        for (int i = 2; i < t.length; i += 3) {
            sum += t[i];
        }
        return sum;
    }

    @Test
    void aStackFromTheFlightRecorderIsClassifiedAlike() {
        CallTree tree = new CallTree();
        tree.add(Arrays.asList("[loopbench-epoll-0-1]", "io/netty/channel/epoll/EpollIoHandler.run",
                "io/netty/channel/unix/FileDescriptor.writeAddress"), 3);
        CpuProfile p = tree.toProfile("flight recorder", "jdk.CPUTimeSample", "why", 5000);
        assertThat(p.share(Layer.KERNEL_SEND)).isEqualTo(1.0);
        assertThat(p.kernelFrames()).isFalse();
    }
}
