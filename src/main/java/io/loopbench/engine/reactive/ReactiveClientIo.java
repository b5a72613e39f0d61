package io.loopbench.engine.reactive;

import io.loopbench.engine.client.EchoClient;
import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.netty.ChannelClientIo;
import io.loopbench.engine.protocol.ReactiveRequests;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.Connection;

import java.net.InetSocketAddress;

/**
 * {@code reactive} execution: an {@link EchoClient} driven through Reactor Netty's inbound and outbound, as an
 * application written with them would be. Echoes arrive as a subscription to {@code receive()} (a stream's frames
 * cut by a {@link FixedLengthFrameDecoder}, one element per message), to the datagrams, or to an upgraded WebSocket's
 * frames. Messages leave through one long-lived {@code send} per connection, fed by a unicast sink: Reactor Netty
 * writes each message as it comes and flushes what the read batch wrote once the loop is free (its
 * {@code MonoSendMany}), so writes coalesce as they do for its users. HTTP's messages (HTTP/1.1's and HTTP/2's) are
 * each a request and its response, of Reactor Netty's {@code HttpClient} ({@link HttpExchanges}). Thread ownership:
 * every callback, and every emission into the sink, runs on the connection's event loop.
 */
public final class ReactiveClientIo extends ChannelClientIo {

    private final EchoClient client;
    private final Connection connection;
    /** WebSocket: each message leaves as one binary frame (see EchoProtocol#framed). */
    private final boolean framed;
    /** HTTP: each message one request of Reactor Netty's HttpClient; null for the others, which use the sink. */
    private final HttpExchanges http;
    /** Emitted into on the event loop only, so without Reactor's serialising wrapper (its CAS per message). */
    private final Sinks.Many<Object> outbound = Sinks.unsafe().many().unicast().onBackpressureBuffer();

    /** Wires the client to a just-connected connection; call on its event loop (Reactor Netty's doOnConnected). */
    public static void attach(EchoClient client, Connection connection, boolean stream) {
        ReactiveClientIo io = new ReactiveClientIo(client, connection, false, null);
        if (stream) {
            connection.addHandlerLast("frames", new FixedLengthFrameDecoder(client.payloadBytes()));
            connection.inbound().receive().subscribe(io::received, client::exception);
        } else {
            connection.inbound().receiveObject()
                    .cast(DatagramPacket.class)
                    .subscribe(p -> io.received(p.content()), client::exception);
        }
        // A connected datagram channel sends a ByteBuf to its peer, as a stream does.
        io.sending().subscribe(null, client::exception);
        io.attached();
    }

    /**
     * A WebSocket client's handler for its upgraded connection, as Reactor Netty's {@code HttpClient} runs it: each
     * binary frame is one echo; a text or continuation frame is counted, as the netty execution's client counts it.
     * Returns the long-lived send, whose end ends the connection.
     */
    public static Publisher<Void> webSocket(EchoClient client, Connection connection) {
        ReactiveClientIo io = new ReactiveClientIo(client, connection, true, null);
        connection.inbound().receiveObject().subscribe(io::frame, client::exception);
        io.attached();
        return io.sending().doOnError(client::exception);
    }

    /**
     * Connects an HTTP client through its protocol's Reactor Netty ends: its connection is opened by a first echo
     * request (a well-formed warm-up message the client never sees), then the client is attached on its loop, each
     * message sent as a request of its own (HTTP/2: a stream of its own). Returns the connection, the TCP one.
     */
    public static Connection http(EchoClient client, ReactiveRequests protocol, EventLoopGroup loops,
                                  InetSocketAddress server, int payloadBytes) {
        ByteBuf first = Unpooled.buffer(payloadBytes);
        MessageFormat.write(first, MessageFormat.WARMUP_TAG, client.id(), 0, payloadBytes);
        HttpExchanges exchanges = new HttpExchanges(client, protocol.multiplexed());
        ReactiveRequests.Requests requests = protocol.connectRequests(loops, server, payloadBytes, first,
                exchanges::released);
        Connection connection = requests.connection();
        connection.channel().eventLoop().execute(() -> {
            ReactiveClientIo io = new ReactiveClientIo(client, connection, false, exchanges);
            exchanges.attach(io.loop, requests.echo());
            io.attached();
        });
        return connection;
    }

    private ReactiveClientIo(EchoClient client, Connection connection, boolean framed, HttpExchanges http) {
        super(connection.channel());
        this.client = client;
        this.connection = connection;
        this.framed = framed;
        this.http = http;
    }

    private Mono<Void> sending() {
        return connection.outbound().sendObject(outbound.asFlux()).then();
    }

    /**
     * Hands the client over, its inbound subscribed; the connection's end ends the send, counts a disconnection that
     * comes mid-phase and frees the client's buffers.
     */
    private void attached() {
        connection.onDispose(() -> {
            outbound.tryEmitComplete();
            if (http != null) {
                http.release();
            }
            client.disconnected();
            client.released();
        });
        client.attach(this);
    }

    /** A received frame, which Reactor Netty releases once handled. */
    private void frame(Object frame) {
        if (frame instanceof BinaryWebSocketFrame f) {
            received(f.content());
        } else if (!(frame instanceof PongWebSocketFrame)) { // a heartbeat, dropped as Netty's handlers drop it
            client.notAnEcho("a " + frame.getClass().getSimpleName()); // as the netty execution's WebSocketFraming
        }
    }

    private void received(ByteBuf message) {
        client.echoed(message, message.readerIndex(), message.readableBytes());
        client.readComplete();
    }

    @Override
    public ByteBuf allocate(int bytes) {
        return channel.alloc().ioBuffer(bytes);
    }

    @Override
    public void write(ByteBuf message, byte tag) {
        if (http != null) {
            http.send(message);
            return;
        }
        Sinks.EmitResult r = outbound.tryEmitNext(framed ? new BinaryWebSocketFrame(message) : message);
        if (r.isFailure()) {
            message.release();
            client.sendFailed(tag, new IllegalStateException("outbound sink refused the message: " + r));
        }
    }

    @Override
    public void flush() {
        // Reactor Netty's send flushes what it wrote
    }
}
