package io.loopbench.engine.reactive;

import io.loopbench.engine.client.ClientIo;
import io.loopbench.engine.client.EchoClient;
import io.netty.buffer.ByteBuf;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;

import java.util.concurrent.Executor;

/**
 * {@code reactive} execution: an {@link EchoClient} driven through Reactor Netty's inbound and outbound instead of a
 * handler. Echoes arrive as a subscription to {@code receive()} (a stream's frames cut by a
 * {@link FixedLengthFrameDecoder}, one element per message), or to the datagrams; each send is its own
 * {@code sendObject} pipeline, subscribed on the spot, which writes and flushes that one message. Thread ownership:
 * every callback runs on the connection's event loop.
 */
public final class ReactiveClientIo implements ClientIo {

    private final EchoClient client;
    private final Connection connection;

    /** Wires the client to a just-connected connection; call on its event loop (Reactor Netty's doOnConnected). */
    public static void attach(EchoClient client, Connection connection, boolean stream) {
        new ReactiveClientIo(client, connection, stream);
    }

    private ReactiveClientIo(EchoClient client, Connection connection, boolean stream) {
        this.client = client;
        this.connection = connection;
        if (stream) {
            connection.addHandlerLast("frames", new FixedLengthFrameDecoder(client.payloadBytes()));
            connection.inbound().receive().subscribe(this::received, client::exception);
        } else {
            connection.inbound().receiveObject()
                    .cast(DatagramPacket.class)
                    .subscribe(p -> received(p.content()), client::exception);
        }
        connection.onDispose(() -> {
            client.disconnected();
            client.released();
        });
        client.attach(this);
    }

    private void received(ByteBuf message) {
        client.echoed(message, message.readerIndex(), message.readableBytes());
        client.readComplete();
    }

    @Override
    public Executor executor() {
        return connection.channel().eventLoop();
    }

    @Override
    public Object histogramOwner() {
        return connection.channel().eventLoop();
    }

    @Override
    public boolean isActive() {
        return connection.channel().isActive();
    }

    @Override
    public ByteBuf allocate(int bytes) {
        return connection.channel().alloc().ioBuffer(bytes);
    }

    @Override
    public boolean gathers() {
        return false;
    }

    @Override
    public void write(ByteBuf message, byte tag) {
        connection.outbound().sendObject(Mono.just(message)).then()
                .subscribe(null, e -> client.sendFailed(tag, e));
    }

    @Override
    public void flush() {
        // each send flushes its own message
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        return ClientIo.schedule(connection.channel().eventLoop(), task, delayNanos);
    }

    @Override
    public Cancellable every(Runnable task, long periodNanos) {
        return ClientIo.every(connection.channel().eventLoop(), task, periodNanos);
    }
}
