package io.loopbench.engine;

/**
 * Socket buffer sizes requested on every UDP socket and what the kernel applied (Linux doubles the request and
 * caps it at net.core.rmem_max / wmem_max), read back after bind and connect.
 */
public record UdpBuffers(int requestedSendBytes, int requestedReceiveBytes,
                         int serverSendBytes, int serverReceiveBytes,
                         int clientSendMinBytes, int clientSendMaxBytes,
                         int clientReceiveMinBytes, int clientReceiveMaxBytes) {
}
