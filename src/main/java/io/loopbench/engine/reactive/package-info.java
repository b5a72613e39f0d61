/**
 * The {@code reactive} execution: on the same loops and pair as {@code netty}, each client end driven through Reactor
 * Netty's inbound and outbound, every send its own pipeline (its server end is the server package's ReactiveEcho);
 * bound and connected through a protocol's own Reactor Netty server and client where it has them (WebSocket's,
 * HTTP's and HTTP/2's HttpServer and HttpClient; an HTTP client's messages are each a request, over HTTP/2 each a
 * concurrent stream, {@code HttpExchanges}).
 *
 * <p>Threads: every callback of a connection's pipelines runs on that connection's event loop.
 */
package io.loopbench.engine.reactive;
