/**
 * WebSocket ({@code websocket}) and WebSocket over TLS ({@code wss}): Netty's HTTP codec and WebSocket protocol
 * handlers on Reactor Netty's TCP ends, one binary frame per message each way, upgraded on {@code /echo}.
 */
package io.loopbench.engine.protocol.websocket;
