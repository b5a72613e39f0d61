/**
 * WebSocket ({@code websocket}) and WebSocket over TLS ({@code wss}), upgraded on {@code /echo}, one binary frame per
 * message each way: for the netty execution, Netty's HTTP codec and WebSocket protocol handlers on Reactor Netty's TCP
 * ends; for the reactive execution, Reactor Netty's HttpServer and HttpClient.
 */
package io.loopbench.engine.protocol.websocket;
