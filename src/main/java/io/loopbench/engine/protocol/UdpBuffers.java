package io.loopbench.engine.protocol;

import java.util.IntSummaryStatistics;
import java.util.List;

/**
 * Socket buffer sizes requested on every UDP socket and what the kernel applied (Linux doubles the request and
 * caps it at net.core.rmem_max / wmem_max), read back after bind and connect. All in bytes.
 *
 * @param requestedSendBytes    SO_SNDBUF requested on every socket
 * @param requestedReceiveBytes SO_RCVBUF requested on every socket
 * @param serverSendBytes       SO_SNDBUF applied on the server socket; null with a target (not ours)
 * @param serverReceiveBytes    SO_RCVBUF applied on the server socket; null with a target
 * @param clientSendMinBytes    smallest SO_SNDBUF applied on a client socket
 * @param clientSendMaxBytes    largest SO_SNDBUF applied on a client socket
 * @param clientReceiveMinBytes smallest SO_RCVBUF applied on a client socket
 * @param clientReceiveMaxBytes largest SO_RCVBUF applied on a client socket
 */
public record UdpBuffers(int requestedSendBytes, int requestedReceiveBytes,
                         Integer serverSendBytes, Integer serverReceiveBytes,
                         int clientSendMinBytes, int clientSendMaxBytes,
                         int clientReceiveMinBytes, int clientReceiveMaxBytes) {

    /** SO_SNDBUF and SO_RCVBUF requested on every UDP socket, the servers' and the clients'. */
    public static final int SEND_BYTES = 64 * 1024;
    public static final int RECEIVE_BYTES = 4 * 1024 * 1024;

    /**
     * The buffers loopbench requests and those applied: the server socket's (null with a target) and each client
     * socket's, as {send, receive} pairs.
     */
    public static UdpBuffers applied(Integer serverSend, Integer serverReceive, List<int[]> clientSendReceive) {
        IntSummaryStatistics send = clientSendReceive.stream().mapToInt(b -> b[0]).summaryStatistics();
        IntSummaryStatistics receive = clientSendReceive.stream().mapToInt(b -> b[1]).summaryStatistics();
        return new UdpBuffers(SEND_BYTES, RECEIVE_BYTES, serverSend, serverReceive,
                send.getMin(), send.getMax(), receive.getMin(), receive.getMax());
    }
}
