/**
 * How the engine reaches a protocol: {@link io.loopbench.engine.protocol.EchoProtocol} binds a server and connects a
 * client — on Netty loops, or as blocking JDK sockets — and says whether messages travel in a byte stream or as
 * datagrams, and, for a stream of protocol objects (WebSocket, HTTP), how the netty echo ends wrap and unwrap them
 * ({@link io.loopbench.engine.protocol.MessageFraming}): all the rest of the engine knows of a protocol. A protocol
 * whose reactive ends are Reactor Netty's own server and client for it also implements
 * {@link io.loopbench.engine.protocol.ReactiveProtocol}, its exchanges whole connections (WebSocket's HttpServer and
 * HttpClient), or {@link io.loopbench.engine.protocol.ReactiveRequests}, its exchanges one request per message (HTTP's).
 * Each protocol is a sub-package, registered in the
 * engine's {@code Protocols}.
 *
 * <p>Threads: protocols are stateless; their Netty callbacks run on the end's event loop; a blocking socket is read
 * and written by one thread and may be closed from any.
 */
package io.loopbench.engine.protocol;
