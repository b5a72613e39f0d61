/**
 * HTTP/1.1 ({@code http}) and HTTP over TLS ({@code https}): each message one {@code POST /echo} request on one
 * keep-alive connection per client, echoed in a {@code 200} response with the same body — pipelined through Netty's
 * HTTP codec on Reactor Netty's TCP ends (netty execution), or one at a time through Reactor Netty's HttpServer and
 * HttpClient (reactive).
 */
package io.loopbench.engine.protocol.http;
