package io.loopbench.engine.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.NettyInbound;
import reactor.netty.NettyOutbound;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * {@code reactive} execution: the echo server end as a Reactor Netty pipeline, operators per message. Stream messages
 * are cut by a {@link FixedLengthFrameDecoder}; WebSocket's come one per frame, HTTP's one per request. Each message is retained on arrival
 * and checked: one that passes goes back (a datagram to its sender, a frame as it came); one that fails is dropped,
 * and Reactor Netty's send releases what its source drops, as its receive releases each message once handled — hence
 * the retain before the check, lest a refused message be released twice and end the echo. Sends flush as Reactor
 * Netty's {@code send} decides. Stateless; its pipelines run on the end's event loop.
 */
public final class ReactiveEcho {

    private ReactiveEcho() {
    }

    /**
     * Starts echoing on a server end as it is configured, before it reads — as Reactor Netty's own {@code handle}
     * does: the pipeline's end disposes of the end.
     */
    public static void serve(Connection end, boolean stream, int payloadBytes, ServerCheck check) {
        if (stream) {
            end.addHandlerLast("frames", new FixedLengthFrameDecoder(payloadBytes));
        }
        Publisher<Void> echo = stream ? frames(end.inbound(), end.outbound(), check)
                : datagrams(end.inbound(), end.outbound(), check);
        Mono.fromDirect(echo).subscribe(end.disposeSubscriber());
    }

    /**
     * A WebSocket server's handler for one upgraded connection, as Reactor Netty's {@code HttpServer} runs it: echoes
     * each binary frame that passes the check; a text or continuation frame is counted and released unanswered, as
     * the netty execution's {@link EchoServerHandler} does (Reactor Netty answers pings and closes itself; a pong, an
     * RFC 6455 heartbeat, is dropped as Netty's handlers drop it). Returns the echo, whose end ends the connection.
     */
    public static Publisher<Void> webSocket(Connection end, ServerCheck check) {
        return end.outbound().sendObject(end.inbound().receiveObject()
                        .doOnNext(ReferenceCountUtil::retain)
                        .filter(frame -> binary(frame, check)))
                .then()
                .doOnError(check::exception);
    }

    /**
     * An HTTP server's handler for one echo request, as Reactor Netty's {@code HttpServer} routes it: its body,
     * aggregated, is the message; one that passes the check goes back as the body of a {@code 200} (Reactor Netty sets
     * {@code Content-Length} for a body sent whole), one that fails is answered {@code 400}, as the netty execution's
     * HttpFraming answers it. Reactor Netty answers pipelined requests one after another, in order. Returns the
     * response, whose end ends the exchange.
     */
    public static Publisher<Void> http(HttpServerRequest request, HttpServerResponse response, ServerCheck check) {
        // The aggregate is released once handled: retained, the body outlives it into the response, which frees it.
        return request.receive().aggregate().retain()
                .defaultIfEmpty(Unpooled.EMPTY_BUFFER)
                .flatMap(body -> {
                    if (check.accept(body)) {
                        return response.sendObject(body).then();
                    }
                    body.release();
                    return response.status(HttpResponseStatus.BAD_REQUEST).send();
                })
                .doOnError(check::exception);
    }

    private static boolean binary(Object frame, ServerCheck check) {
        if (frame instanceof BinaryWebSocketFrame f) {
            return check.accept(f.content());
        }
        if (frame instanceof PongWebSocketFrame) {
            return false;
        }
        check.refused("a " + frame.getClass().getSimpleName()); // as the netty execution's WebSocketFraming says
        return false;
    }

    private static Publisher<Void> frames(NettyInbound in, NettyOutbound out, ServerCheck check) {
        return out.send(in.receive()
                        .retain()
                        .filter(check::accept))
                .then()
                .doOnError(check::exception);
    }

    private static Publisher<Void> datagrams(NettyInbound in, NettyOutbound out, ServerCheck check) {
        return out.sendObject(in.receiveObject()
                        .cast(DatagramPacket.class)
                        .map(DatagramPacket::retain)
                        .filter(p -> check.accept(p.content()))
                        .map(p -> new DatagramPacket(p.content(), p.sender())))
                .then()
                .doOnError(check::exception);
    }
}
