package io.loopbench.engine.server;

import io.loopbench.engine.spec.Protocol;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;
import reactor.netty.tcp.TcpServer;
import reactor.netty.udp.UdpServer;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Binds an echo server on the given loops — a repetition's own, or a standing server's — with the socket options
 * every loopbench echo server uses: TCP_NODELAY on accepted TCP channels; UDP buffers of 4 MiB (receive) and 64 KiB
 * (send) requested, and receive buffers one byte larger than the largest datagram expected, so that a longer one
 * shows as a wrong size instead of being truncated silently. Stateless.
 */
public final class EchoServers {

    static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);
    public static final int UDP_SEND_BUFFER = 64 * 1024;
    public static final int UDP_RECEIVE_BUFFER = 4 * 1024 * 1024;

    private EchoServers() {
    }

    /**
     * @param handler        makes the last handler of each TCP connection, or of the UDP socket
     * @param accepted       TCP: every accepted channel joins it, so that its owner can close them
     * @param onConnection   TCP: told of each configured connection
     * @param datagramBytes  UDP: the largest datagram expected
     */
    public static DisposableChannel bind(Protocol protocol, EventLoopGroup group, InetSocketAddress address,
                                  Supplier<ChannelHandler> handler, ChannelGroup accepted,
                                  Consumer<Connection> onConnection, int datagramBytes) {
        if (protocol == Protocol.UDP) {
            return udp(group, address, datagramBytes)
                    .doOnBound(c -> c.addHandlerLast("echo", handler.get()))
                    .bindNow(BIND_TIMEOUT);
        }
        return tcp(group, address, accepted)
                .doOnConnection(c -> {
                    c.addHandlerLast("echo", handler.get());
                    onConnection.accept(c);
                })
                .bindNow(BIND_TIMEOUT);
    }

    /**
     * {@code reactive} execution: the echo as a Reactor Netty pipeline, operators per message. TCP messages are cut
     * by a {@link FixedLengthFrameDecoder}; each one that passes the check is retained and sent back, the rest are
     * released by Reactor Netty. Sends flush as Reactor Netty's {@code send} decides.
     */
    public static DisposableChannel bindReactive(Protocol protocol, EventLoopGroup group, InetSocketAddress address,
                                          ServerCheck check, ChannelGroup accepted,
                                          Consumer<Connection> onConnection, int payloadBytes) {
        if (protocol == Protocol.UDP) {
            return udp(group, address, payloadBytes)
                    .handle((in, out) -> out.sendObject(in.receiveObject()
                            .cast(DatagramPacket.class)
                            .filter(p -> check.accept(p.content()))
                            .map(p -> new DatagramPacket(p.content().retain(), p.sender())))
                            .then()
                            .doOnError(check::exception))
                    .bindNow(BIND_TIMEOUT);
        }
        return tcp(group, address, accepted)
                .doOnConnection(c -> {
                    c.addHandlerLast("frames", new FixedLengthFrameDecoder(payloadBytes));
                    onConnection.accept(c);
                })
                .handle((in, out) -> out.send(in.receive()
                                .filter(check::accept)
                                .map(ByteBuf::retain))
                        .then()
                        .doOnError(check::exception))
                .bindNow(BIND_TIMEOUT);
    }

    private static UdpServer udp(EventLoopGroup group, InetSocketAddress address, int datagramBytes) {
        return UdpServer.create()
                .bindAddress(() -> address)
                .runOn(group)
                .option(ChannelOption.SO_RCVBUF, UDP_RECEIVE_BUFFER)
                .option(ChannelOption.SO_SNDBUF, UDP_SEND_BUFFER)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(datagramBytes + 1));
    }

    private static TcpServer tcp(EventLoopGroup group, InetSocketAddress address, ChannelGroup accepted) {
        return TcpServer.create()
                .bindAddress(() -> address)
                .runOn(group)
                .channelGroup(accepted)
                .childOption(ChannelOption.TCP_NODELAY, true);
    }
}
