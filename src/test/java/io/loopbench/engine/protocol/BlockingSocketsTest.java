package io.loopbench.engine.protocol;

import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.udp.Udp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each protocol's blocking sockets carry bytes both ways, a server's back to the client that sent them. */
class BlockingSocketsTest {

    static List<Arguments> protocols() {
        return List.of(Arguments.of(new Tcp(), "ServerSocket", "Socket", true),
                Arguments.of(new Udp(1), "DatagramSocket", "DatagramSocket", null));
    }

    @ParameterizedTest
    @MethodSource("protocols")
    void aClientsBytesComeBackFromTheServersEnd(BlockingProtocol protocol, String serverClass, String clientClass,
                                                Boolean noDelay) throws Exception {
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        try (BlockingServer server = protocol.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             BlockingSocket client = protocol.connect(server.address())) {
            assertThat(server.socketClass()).isEqualTo(serverClass);
            assertThat(client.socketClass()).isEqualTo(clientClass);
            assertThat(client.remoteAddress()).isEqualTo(server.address());
            assertThat(client.tcpNoDelay()).isEqualTo(noDelay);
            assertThat(client.isOpen()).isTrue();
            client.write(hello, 0, hello.length);
            // a datagram server's one end is its own socket: closing the end closes the server too
            try (BlockingSocket end = server.accept()) {
                byte[] received = new byte[16];
                int n = end.read(received, 0, received.length);
                end.write(received, 0, n);

                byte[] echoed = new byte[16];
                assertThat(client.read(echoed, 0, echoed.length)).isEqualTo(hello.length);
                assertThat(new String(echoed, 0, hello.length, StandardCharsets.US_ASCII)).isEqualTo("hello");
                assertThat(end.tcpNoDelay()).isEqualTo(noDelay);
            }
        }
    }
}
