package io.loopbench.engine.profile;

import io.loopbench.engine.spec.Labeled;

import java.util.List;

/**
 * Where a CPU sample's time went, by the deepest frame of its stack that names a layer ({@link #of}); a frame that
 * names none (a buffer copy, a JVM stub, a kernel function) belongs to the layer of the frame that called it. The
 * thread's own frame, at the top, names the collector's and the compilers' threads.
 */
public enum Layer implements Labeled {
    KERNEL_SEND("kernel send", "the send path: the system calls that write or send, and what the kernel does within "
            + "them (on loopback, delivering to the receiver's socket)"),
    KERNEL_RECEIVE("kernel receive", "the system calls that read or receive, and what the kernel does within them"),
    WAIT("wait", "waiting for readiness: epoll_wait, io_uring_enter (its submissions too), the JDK's poller"),
    NETTY("Netty pipeline", "Netty's event loop, channels and handlers, and Reactor Netty's, outside the layers below"),
    CODEC("codec", "HTTP and WebSocket encoding and decoding"),
    HTTP2("HTTP/2 frames", "HTTP/2's frame codec, HPACK, streams and flow control, and loopbench's gathering of a "
            + "stream's frames into a message (h2c, h2)"),
    GRPC("gRPC calls", "grpc-java above its HTTP/2 frames: its transport's handlers, calls, message framing and "
            + "executors, and loopbench's echo service and calls on it (grpc)"),
    TLS("TLS", "encryption, decryption and the TLS engine (the JDK's or OpenSSL's)"),
    ECHO_CHECK("echo check", "loopbench's own code: writing each message, validating each echo, timing round trips"),
    WORK("work per echo", "the configured CPU iterations per echo"),
    GC("GC", "the garbage collector: its threads, and collections run by the JVM's VM thread (the serial collector's)"),
    JIT("JIT", "the JIT compilers' threads"),
    OTHER("other", "everything else: the JVM's other threads, timers, unwalkable stacks");

    private final String words;
    private final String meaning;

    Layer(String words, String meaning) {
        this.words = words;
        this.meaning = meaning;
    }

    /** Its name in reports and on the page. */
    public String words() {
        return words;
    }

    /** What it counts, in a sentence. */
    public String meaning() {
        return meaning;
    }

    private record Rule(Layer layer, List<String> prefixes, List<String> exact) {
    }

    /*
     * Java frames as async-profiler names them ("package/Class.method"); native ones by their exact symbol, for
     * stacks whose Java part could not be walked. Only a layer's entry frames are named: what they call inherits.
     */
    private static final List<Rule> RULES = List.of(
            new Rule(WORK, List.of("io/loopbench/engine/server/Work."), List.of()),
            new Rule(KERNEL_SEND, List.of("io/netty/channel/unix/FileDescriptor.write",
                    "io/netty/channel/unix/Socket.send", "io/netty/channel/epoll/LinuxSocket.send",
                    "io/netty/channel/epoll/Native.sendmmsg", "sun/nio/ch/SocketDispatcher.write",
                    "sun/nio/ch/DatagramDispatcher.write", "sun/nio/ch/DatagramChannelImpl.send",
                    "sun/nio/ch/IOUtil.write", "sun/nio/ch/NioSocketImpl.implWrite"),
                    List.of("__libc_write", "__GI___libc_write", "__writev", "writev", "__libc_sendto", "__send",
                            "sendto", "sendmsg", "__libc_sendmsg", "sendmmsg")),
            new Rule(KERNEL_RECEIVE, List.of("io/netty/channel/unix/FileDescriptor.read",
                    "io/netty/channel/unix/Socket.recv", "io/netty/channel/epoll/LinuxSocket.recv",
                    "io/netty/channel/epoll/Native.recvmmsg", "sun/nio/ch/SocketDispatcher.read",
                    "sun/nio/ch/DatagramDispatcher.read", "sun/nio/ch/DatagramChannelImpl.receive",
                    "sun/nio/ch/IOUtil.read", "sun/nio/ch/NioSocketImpl.implRead"),
                    List.of("__libc_read", "__GI___libc_read", "__GI_read", "read", "readv", "__libc_recvfrom",
                            "recvfrom", "recvmsg", "__libc_recvmsg", "recvmmsg")),
            new Rule(WAIT, List.of("io/netty/channel/epoll/Native.epoll", "io/netty/channel/uring/Native.ioUringEnter",
                    "io/netty/channel/uring/Native.ioUringWait", "sun/nio/ch/EPoll.wait",
                    "sun/nio/ch/EPollSelectorImpl.doSelect", "jdk/internal/misc/Unsafe.park"),
                    List.of("epoll_wait", "__GI_epoll_wait", "epoll_pwait", "io_uring_enter")),
            new Rule(TLS, List.of("io/netty/handler/ssl/", "io/netty/internal/tcnative/", "sun/security/",
                    "com/sun/crypto/", "javax/crypto/", "javax/net/ssl/", "Java_io_netty_internal_tcnative_"),
                    List.of()),
            new Rule(HTTP2, List.of("io/netty/handler/codec/http2/", "io/loopbench/engine/protocol/http2/"),
                    List.of()),
            new Rule(GRPC, List.of("io/grpc/", "io/loopbench/engine/protocol/grpc/", "io/loopbench/engine/grpc/"),
                    List.of()),
            new Rule(CODEC, List.of("io/netty/handler/codec/http/", "reactor/netty/http/"), List.of()),
            new Rule(ECHO_CHECK, List.of("io/loopbench/", "org/HdrHistogram/"), List.of()),
            new Rule(NETTY, List.of("io/netty/channel/", "io/netty/handler/", "io/netty/util/concurrent/",
                    "reactor/"), List.of()),
            // the JVM's own: a collection the VM thread runs at a safepoint
            new Rule(GC, List.of("VM_SerialCollect", "VM_GenCollect", "VM_CollectForAllocation", "VM_G1",
                    "VM_Parallel", "SerialHeap::", "G1CollectedHeap::", "ParallelScavengeHeap::"), List.of()));

    /**
     * The layer this frame starts, or null when it starts none (its caller's layer goes on). Thread frames
     * ({@code [name]}) name the collector's and compilers' threads; every other thread starts in {@link #OTHER}.
     */
    public static Layer of(String frame) {
        if (frame.startsWith("[")) {
            return frame.startsWith("[GC ") || frame.startsWith("[G1 ") || frame.startsWith("[ZGC")
                    || frame.startsWith("[Z ") ? GC
                    : frame.startsWith("[C1 CompilerThre") || frame.startsWith("[C2 CompilerThre") ? JIT : OTHER;
        }
        for (Rule r : RULES) {
            if (r.exact.contains(frame)) {
                return r.layer;
            }
            for (String p : r.prefixes) {
                if (frame.startsWith(p)) {
                    return r.layer;
                }
            }
        }
        return null;
    }
}
