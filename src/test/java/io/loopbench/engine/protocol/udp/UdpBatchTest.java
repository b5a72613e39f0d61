package io.loopbench.engine.protocol.udp;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.netty.DisposableChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Batched datagram reads: Netty allocates one receive buffer per read system call, so the datagrams waiting on a
 * socket take one buffer per batch of datagramsPerRead (recvmmsg), or one each (recvfrom).
 */
class UdpBatchTest {

    /** Counts the receive buffers a channel takes. */
    static final class CountingAllocator extends AbstractByteBufAllocator {
        final AtomicInteger buffers = new AtomicInteger();

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            buffers.incrementAndGet();
            return UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            buffers.incrementAndGet();
            return UnpooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    /** The last read of each wake-up finds the socket empty, and Netty allocates a buffer for it too. */
    @ParameterizedTest
    @CsvSource({"1, 16, 17", "16, 1, 2", "8, 2, 3"})
    void waitingDatagramsAreReadInBatchesOfAtMostDatagramsPerRead(int datagramsPerRead, int leastReads, int mostReads)
            throws Exception {
        assumeTrue(Epoll.isAvailable(), "epoll transport");
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        var seen = new CountDownLatch(16);
        var allocator = new CountingAllocator();
        var accepted = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        DisposableChannel server = null;
        try (DatagramChannel client = DatagramChannel.open()) {
            server = new Udp(datagramsPerRead).bind(loop,
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64, accepted,
                    end -> end.addHandlerLast(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void handlerAdded(ChannelHandlerContext ctx) {
                            ctx.channel().config().setAllocator(allocator);
                            ctx.channel().config().setAutoRead(true);
                        }

                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ((DatagramPacket) msg).release();
                            seen.countDown();
                        }
                    }));
            // Hold the loop so that all 16 datagrams wait on the socket before it reads.
            var held = new CountDownLatch(1);
            loop.execute(() -> {
                try {
                    held.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            client.connect(server.address());
            for (int i = 0; i < 16; i++) {
                client.write(ByteBuffer.allocate(64));
            }
            held.countDown();
            assertThat(seen.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(allocator.buffers.get()).isBetween(leastReads, mostReads);
        } finally {
            if (server != null) {
                server.disposeNow();
            }
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
