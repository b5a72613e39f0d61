package io.loopbench.engine.protocol.websocket;

import io.loopbench.engine.protocol.MessageFraming;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;

/**
 * WebSocket's framing: one binary frame per message each way; the server echoes the frame it received, the same
 * object. A frame of another kind (text, continuation; close and ping are answered by Netty's protocol handlers)
 * carries no message and is left unanswered. Stateless.
 */
final class WebSocketFraming implements MessageFraming {

    static final WebSocketFraming INSTANCE = new WebSocketFraming();

    private WebSocketFraming() {
    }

    @Override
    public Object wrap(ByteBuf message) {
        return new BinaryWebSocketFrame(message);
    }

    @Override
    public ByteBuf content(Object msg) {
        return msg instanceof BinaryWebSocketFrame f ? f.content() : null;
    }

    @Override
    public Object reply(Object request) {
        return request;
    }

    @Override
    public Object refusal(Object request) {
        return null;
    }

    @Override
    public String describe(Object msg) {
        return "a " + msg.getClass().getSimpleName();
    }
}
