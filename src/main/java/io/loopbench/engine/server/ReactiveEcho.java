package io.loopbench.engine.server;

import io.loopbench.engine.offload.OffloadGauge;
import io.loopbench.engine.offload.OffloadPool;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
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
 * Netty's {@code send} decides. With an offload, each message's check and work run behind {@code publishOn} (HTTP's
 * request behind {@code subscribeOn}) on the pool's scheduler, which keeps a connection's messages in order; the echo
 * is then sent from that thread, which Reactor Netty hands to the loop. Stateless; its pipelines run on the end's event
 * loop, and on the offload's scheduler where there is one.
 */
public final class ReactiveEcho {

    private ReactiveEcho() {
    }

    /**
     * Starts echoing on a server end as it is configured, before it reads — as Reactor Netty's own {@code handle}
     * does: the pipeline's end disposes of the end.
     */
    public static void serve(Connection end, boolean stream, int payloadBytes, ServerCheck check,
                             OffloadPool offload) {
        if (stream) {
            end.addHandlerLast("frames", new FixedLengthFrameDecoder(payloadBytes));
        }
        Publisher<Void> echo = stream ? frames(end.inbound(), end.outbound(), check, offload)
                : datagrams(end.inbound(), end.outbound(), check, offload);
        Mono.fromDirect(echo).subscribe(end.disposeSubscriber());
    }

    /**
     * A WebSocket server's handler for one upgraded connection, as Reactor Netty's {@code HttpServer} runs it: echoes
     * each binary frame that passes the check; a text or continuation frame is counted and released unanswered, as
     * the netty execution's {@link EchoServerHandler} does (Reactor Netty answers pings and closes itself; a pong, an
     * RFC 6455 heartbeat, is dropped as Netty's handlers drop it). Returns the echo, whose end ends the connection.
     */
    public static Publisher<Void> webSocket(Connection end, ServerCheck check, OffloadPool offload) {
        return end.outbound().sendObject(offloaded(end.inbound().receiveObject()
                        .doOnNext(ReferenceCountUtil::retain), offload)
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
    public static Publisher<Void> http(HttpServerRequest request, HttpServerResponse response, ServerCheck check,
                                       OffloadPool offload) {
        // The aggregate is released once handled: retained, the body outlives it into the response, which frees it.
        return request.receive().aggregate().retain()
                .defaultIfEmpty(Unpooled.EMPTY_BUFFER)
                .flatMap(body -> judged(body, check, offload).flatMap(ok -> {
                    if (ok) {
                        return response.sendObject(body).then();
                    }
                    body.release();
                    return response.status(HttpResponseStatus.BAD_REQUEST).send();
                }))
                .doOnError(check::exception);
    }

    /** The check of one request's body: at once on the loop, or on the offload's scheduler. */
    private static Mono<Boolean> judged(ByteBuf body, ServerCheck check, OffloadPool offload) {
        Scheduler scheduler = offload.scheduler();
        if (scheduler == null) {
            return Mono.just(check.accept(body));
        }
        OffloadGauge gauge = check.gauge();
        return Mono.fromCallable(() -> {
                    gauge.taken();
                    return check.accept(body);
                })
                .subscribeOn(scheduler)
                .doOnSubscribe(s -> gauge.handed());
    }

    /** Messages moved onto the offload's scheduler, in order, counted as handed and taken; as they are without one. */
    private static <T> Flux<T> offloaded(Flux<T> messages, OffloadPool offload) {
        Scheduler scheduler = offload.scheduler();
        if (scheduler == null) {
            return messages;
        }
        OffloadGauge gauge = offload.gauge();
        return messages.doOnNext(m -> gauge.handed()).publishOn(scheduler).doOnNext(m -> gauge.taken());
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

    private static Publisher<Void> frames(NettyInbound in, NettyOutbound out, ServerCheck check,
                                          OffloadPool offload) {
        return out.send(offloaded(in.receive().retain(), offload)
                        .filter(check::accept))
                .then()
                .doOnError(check::exception);
    }

    private static Publisher<Void> datagrams(NettyInbound in, NettyOutbound out, ServerCheck check,
                                             OffloadPool offload) {
        return out.sendObject(offloaded(in.receiveObject()
                        .cast(DatagramPacket.class)
                        .map(DatagramPacket::retain), offload)
                        .filter(p -> check.accept(p.content()))
                        .map(p -> new DatagramPacket(p.content(), p.sender())))
                .then()
                .doOnError(check::exception);
    }
}
