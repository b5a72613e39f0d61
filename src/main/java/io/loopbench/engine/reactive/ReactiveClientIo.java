package io.loopbench.engine.reactive;

import io.loopbench.engine.client.ClientIo;
import io.loopbench.engine.client.EchoClient;
import io.netty.buffer.ByteBuf;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import reactor.core.publisher.Sinks;
import reactor.netty.Connection;

import java.util.concurrent.Executor;

/**
 * {@code reactive} execution: an {@link EchoClient} driven through Reactor Netty's inbound and outbound, as an
 * application written with them would be. Echoes arrive as a subscription to {@code receive()} (a stream's frames
 * cut by a {@link FixedLengthFrameDecoder}, one element per message), or to the datagrams. Messages leave through
 * one long-lived {@code send} per connection, fed by a unicast sink: Reactor Netty writes each message as it comes
 * and flushes what the read batch wrote once the loop is free (its {@code MonoSendMany}), so writes coalesce as they
 * do for its users. Thread ownership: every callback, and every emission into the sink, runs on the connection's
 * event loop.
 */
public final class ReactiveClientIo implements ClientIo {

    private final EchoClient client;
    private final Connection connection;
    /** Emitted into on the event loop only, so without Reactor's serialising wrapper (its CAS per message). */
    private final Sinks.Many<Object> outbound = Sinks.unsafe().many().unicast().onBackpressureBuffer();

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
        // A connected datagram channel sends a ByteBuf to its peer, as a stream does.
        connection.outbound().sendObject(outbound.asFlux()).then().subscribe(null, client::exception);
        connection.onDispose(() -> {
            outbound.tryEmitComplete();
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
        Sinks.EmitResult r = outbound.tryEmitNext(message);
        if (r.isFailure()) {
            message.release();
            client.sendFailed(tag, new IllegalStateException("outbound sink refused the message: " + r));
        }
    }

    @Override
    public void flush() {
        // Reactor Netty's send flushes what it wrote
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
