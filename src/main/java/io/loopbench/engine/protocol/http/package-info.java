/**
 * HTTP/1.1 ({@code http}) and HTTP over TLS ({@code https}): Netty's HTTP codec on Reactor Netty's TCP ends, each
 * message one pipelined {@code POST /echo} request on one keep-alive connection per client, echoed in a {@code 200}
 * response with the same body.
 */
package io.loopbench.engine.protocol.http;
