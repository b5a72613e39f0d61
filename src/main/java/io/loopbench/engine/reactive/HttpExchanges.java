package io.loopbench.engine.reactive;

import io.loopbench.engine.client.EchoClient;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpResponseStatus;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

import java.util.ArrayDeque;

/**
 * {@code reactive} execution, HTTP: a client's messages as requests of Reactor Netty's {@code HttpClient}, each one
 * exchange — its message the request's body, its response's body the echo; a status other than 200 is counted, as
 * the netty execution's client counts it. The exchange is built once and subscribed to once per message, so that a
 * message costs what Reactor Netty's request and response cost, and no more; each subscription's request takes the
 * oldest message not yet taken (which message goes in which request does not matter: an echo is matched by its
 * sequence).
 *
 * <p>Over HTTP/1.1 Reactor Netty sends one request at a time per connection: the connection is busy from a request
 * until its exchange is over and the connection is back in the pool, which comes just after the echo is handed to
 * the client. The next message, which that echo frees, waits for that release, then starts at once (a request
 * subscribed to earlier would wait in the pool's queue, under a timer on Reactor's global scheduler); its round trip
 * includes the wait. Over HTTP/2 ({@code multiplexed}) each message starts its exchange at once, a stream of its
 * own beside the others in flight. Thread ownership: created by the thread that connects; every other call, and
 * every callback, on the connection's event loop.
 */
final class HttpExchanges {

    private final EchoClient client;
    /** Each message a concurrent stream (HTTP/2), never waiting for the previous exchange's release. */
    private final boolean multiplexed;
    private EventLoop loop;
    /** One message's exchange; null until attached. */
    private Mono<Void> exchange;
    /** The messages of the exchanges subscribed to, oldest first, until Reactor Netty takes them for a request. */
    private final ArrayDeque<ByteBuf> bodies = new ArrayDeque<>();
    /** HTTP/1.1: a message written while the connection is still busy with the previous exchange. */
    private ByteBuf waiting;
    private boolean busy;

    HttpExchanges(EchoClient client, boolean multiplexed) {
        this.client = client;
        this.multiplexed = multiplexed;
    }

    /** Builds the exchange on the connection's loop, once the client's connection is open. */
    void attach(EventLoop loop, HttpClient.RequestSender echo) {
        this.loop = loop;
        this.exchange = echo
                .send((request, out) -> out.sendObject(bodies.poll()))
                .responseSingle((response, content) -> content
                        .defaultIfEmpty(Unpooled.EMPTY_BUFFER) // a 200 without a body: a malformed echo
                        .doOnNext(b -> response(response.status(), b)))
                .then();
    }

    /** Sends a message as the next request, taking it over: now, or once the connection is released. */
    void send(ByteBuf message) {
        if (busy) {
            waiting = message;
        } else {
            start(message);
        }
    }

    /** HTTP/1.1: the connection is back in the pool: starts the message that waits for it, if any. */
    void released() {
        if (exchange == null) {
            return; // the set-up's request, before the client is attached
        }
        busy = false;
        if (waiting != null) {
            ByteBuf m = waiting;
            waiting = null;
            start(m);
        }
    }

    private void start(ByteBuf message) {
        busy = !multiplexed;
        bodies.add(message);
        exchange.subscribe(null, this::failed);
    }

    private void response(HttpResponseStatus status, ByteBuf content) {
        if (status.code() == HttpResponseStatus.OK.code()) {
            client.echoed(content, content.readerIndex(), content.readableBytes());
        } else {
            client.notAnEcho("a response " + status); // in the netty execution's words (HttpFraming)
        }
        client.readComplete();
    }

    /**
     * An exchange that failed (a closed connection, a refused request): counted on the loop. HTTP/1.1's messages not
     * taken are its own, freed now; HTTP/2's may be the next streams' to take, freed once the connection is gone.
     */
    private void failed(Throwable cause) {
        if (!loop.inEventLoop()) {
            loop.execute(() -> failed(cause));
            return;
        }
        if (!multiplexed) {
            release();
        }
        client.exception(cause);
    }

    /** Frees the messages Reactor Netty did not take: on HTTP/1.1's failure, and once the connection is gone. */
    void release() {
        ByteBuf m;
        while ((m = bodies.poll()) != null) {
            m.release();
        }
        if (waiting != null) {
            waiting.release();
            waiting = null;
        }
    }
}
