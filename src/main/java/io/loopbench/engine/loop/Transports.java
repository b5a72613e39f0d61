package io.loopbench.engine.loop;

import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Which Netty transports load on this machine, and what {@code auto} means here. Stateless. */
public final class Transports {

    /**
     * The order in which {@code auto} tries transports: epoll measured fastest on this project's machines (see
     * docs/performance.md, "Transports"); io_uring next; NIO always loads.
     */
    public static final List<Transport> AUTO_PREFERENCE = List.of(Transport.EPOLL, Transport.IO_URING, Transport.NIO);

    private Transports() {
    }

    public static boolean isAvailable(Transport t) {
        return switch (t) {
            case AUTO, NIO, JDK -> true;
            case EPOLL -> Epoll.isAvailable();
            case IO_URING -> IoUring.isAvailable();
        };
    }

    /** Why a transport does not load here, or {@code null} when it does. */
    public static String unavailabilityCause(Transport t) {
        Throwable cause = switch (t) {
            case AUTO, NIO, JDK -> null;
            case EPOLL -> Epoll.unavailabilityCause();
            case IO_URING -> IoUring.unavailabilityCause();
        };
        return cause == null ? null : cause.toString();
    }

    /** Each concrete transport's label and {@code null} when it loads, or why it does not. */
    public static Map<String, String> availability() {
        Map<String, String> m = new LinkedHashMap<>();
        for (Transport t : List.of(Transport.NIO, Transport.EPOLL, Transport.IO_URING)) {
            m.put(t.label(), isAvailable(t) ? null : String.valueOf(unavailabilityCause(t)));
        }
        return m;
    }

    /** The concrete transport a run uses: {@code jdk} under virtual-threads execution, else as below. */
    public static Transport resolve(RunSpec spec) {
        return spec.execution() == Execution.VIRTUAL_THREADS ? Transport.JDK : resolve(spec.transport());
    }

    /** The concrete Netty transport: {@code auto} becomes the first available of {@link #AUTO_PREFERENCE}. */
    public static Transport resolve(Transport requested) {
        if (requested != Transport.AUTO) {
            return requested;
        }
        return AUTO_PREFERENCE.stream().filter(Transports::isAvailable).findFirst().orElse(Transport.NIO);
    }

    static IoHandlerFactory handlerFactory(Transport t) {
        return switch (t) {
            case NIO -> NioIoHandler.newFactory();
            case EPOLL -> EpollIoHandler.newFactory();
            case IO_URING -> IoUringIoHandler.newFactory();
            case AUTO -> throw new IllegalArgumentException("resolve 'auto' first");
            case JDK -> throw new IllegalArgumentException("jdk is not a Netty transport");
        };
    }

    /** The Netty transport whose loops these are (they say which IO handler they run). */
    public static Transport of(EventLoopGroup loops) {
        if (loops instanceof IoEventLoopGroup io) {
            if (io.isIoType(EpollIoHandler.class)) {
                return Transport.EPOLL;
            }
            if (io.isIoType(IoUringIoHandler.class)) {
                return Transport.IO_URING;
            }
            if (io.isIoType(NioIoHandler.class)) {
                return Transport.NIO;
            }
        }
        throw new IllegalArgumentException("loops of an unknown transport: " + loops.getClass().getName());
    }

    /**
     * A Netty transport's TCP channel class, for a library that is handed loops and must be told the channel type to
     * match them (grpc-java's builders); Reactor Netty infers it from the loops.
     */
    public static Class<? extends SocketChannel> socketChannel(Transport t) {
        return switch (t) {
            case NIO -> NioSocketChannel.class;
            case EPOLL -> EpollSocketChannel.class;
            case IO_URING -> IoUringSocketChannel.class;
            case AUTO, JDK -> throw new IllegalArgumentException(t.label() + " has no Netty channel class");
        };
    }

    /** A Netty transport's TCP listening channel class; see {@link #socketChannel}. */
    public static Class<? extends ServerChannel> serverSocketChannel(Transport t) {
        return switch (t) {
            case NIO -> NioServerSocketChannel.class;
            case EPOLL -> EpollServerSocketChannel.class;
            case IO_URING -> IoUringServerSocketChannel.class;
            case AUTO, JDK -> throw new IllegalArgumentException(t.label() + " has no Netty channel class");
        };
    }
}
