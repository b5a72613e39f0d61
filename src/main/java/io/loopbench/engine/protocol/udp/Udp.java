package io.loopbench.engine.protocol.udp;

import io.loopbench.engine.protocol.BlockingServer;
import io.loopbench.engine.protocol.BlockingSocket;
import io.loopbench.engine.protocol.BlockingProtocol;
import io.loopbench.engine.protocol.UdpBuffers;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.group.ChannelGroup;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;
import reactor.netty.transport.Transport;
import reactor.netty.udp.UdpClient;
import reactor.netty.udp.UdpServer;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.function.Consumer;

/**
 * UDP: one message per datagram. Every socket, server's and clients', requests the buffers of {@link UdpBuffers};
 * Netty's receive buffers are one byte larger than the largest datagram expected, so that a longer one shows as a
 * wrong size instead of being truncated silently. With more than one datagram per read, every Netty socket reads
 * batches with {@code recvmmsg} (epoll's maximum datagram payload size set, and a receive buffer of that many
 * datagrams); Netty's epoll channel already sends what one flush holds with {@code sendmmsg}. Immutable.
 */
public final class Udp implements BlockingProtocol {

    private final int datagramsPerRead;

    /** @param datagramsPerRead the most datagrams one read takes; above 1 only on the epoll transport */
    public Udp(int datagramsPerRead) {
        this.datagramsPerRead = datagramsPerRead;
    }

    @Override
    public boolean stream() {
        return false;
    }

    @Override
    public DisposableChannel bind(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                  ChannelGroup accepted, Consumer<Connection> ends) {
        return options(UdpServer.create()
                .bindAddress(() -> address)
                .runOn(loops), payloadBytes)
                .doOnBound(ends)
                .bindNow(SETUP_TIMEOUT);
    }

    @Override
    public Connection connect(EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                              Consumer<Connection> attach) {
        return options(UdpClient.create()
                .remoteAddress(() -> server)
                .runOn(loops), payloadBytes)
                .doOnConnected(attach)
                .connectNow(SETUP_TIMEOUT);
    }

    @Override
    public BlockingServer bind(InetSocketAddress address) throws IOException {
        DatagramSocket s = unbound();
        s.bind(address);
        return new UdpSocket(s);
    }

    @Override
    public BlockingSocket connect(SocketAddress server) throws IOException {
        DatagramSocket s = unbound();
        s.connect(server);
        return new UdpSocket(s);
    }

    /** The options of every Netty UDP socket, a server's or a client's. */
    private <T extends Transport<T, ?>> T options(T socket, int payloadBytes) {
        T s = socket.option(ChannelOption.SO_RCVBUF, UdpBuffers.RECEIVE_BYTES)
                .option(ChannelOption.SO_SNDBUF, UdpBuffers.SEND_BYTES)
                .option(ChannelOption.RCVBUF_ALLOCATOR,
                        new FixedRecvByteBufAllocator((payloadBytes + 1) * datagramsPerRead));
        // Each datagram's slot in the batch is one byte larger than expected, as above.
        return datagramsPerRead > 1 ? s.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, payloadBytes + 1) : s;
    }

    /** A JDK UDP socket, neither bound nor connected yet, with the buffers every one requests. */
    private static DatagramSocket unbound() throws IOException {
        DatagramSocket s = new DatagramSocket(null);
        s.setReceiveBufferSize(UdpBuffers.RECEIVE_BYTES);
        s.setSendBufferSize(UdpBuffers.SEND_BYTES);
        return s;
    }
}
