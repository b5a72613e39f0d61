package io.loopbench.engine.server;

import io.loopbench.engine.offload.OffloadPool;
import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.protocol.EchoServerFixture;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.udp.Udp;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Socket;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reactive server end refuses a malformed message as the netty one does: counted, left unanswered, and the
 * messages after it still echoed (each refused message released once, not twice).
 */
class ReactiveEchoTest {

    private static final int PAYLOAD = 64;

    private final ServerStats stats = new ServerStats();
    private final ServerCheck check = new ServerCheck(0, stats);

    @Test
    void aStreamGoesOnEchoingAfterAMalformedMessage() throws Exception {
        try (EchoServerFixture server = new EchoServerFixture(new Tcp(), PAYLOAD,
                end -> ReactiveEcho.serve(end, true, PAYLOAD, check, OffloadPool.none()));
             Socket s = new Socket()) {
            s.connect(server.address(), 5000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(new byte[PAYLOAD]);
            s.getOutputStream().write(message());

            assertThat(s.getInputStream().readNBytes(PAYLOAD)).isEqualTo(message());
        }
        assertRefusedOnce();
    }

    @Test
    void datagramsGoOnEchoingAfterAMalformedOne() throws Exception {
        try (EchoServerFixture server = new EchoServerFixture(new Udp(1), PAYLOAD,
                end -> ReactiveEcho.serve(end, false, PAYLOAD, check, OffloadPool.none()));
             DatagramSocket s = new DatagramSocket()) {
            s.connect(server.address());
            s.setSoTimeout(5000);
            s.send(new DatagramPacket(new byte[PAYLOAD], PAYLOAD));
            s.send(new DatagramPacket(message(), PAYLOAD));

            DatagramPacket echo = new DatagramPacket(new byte[2 * PAYLOAD], 2 * PAYLOAD);
            s.receive(echo);
            assertThat(Arrays.copyOf(echo.getData(), echo.getLength())).isEqualTo(message());
        }
        assertRefusedOnce();
    }

    private void assertRefusedOnce() {
        assertThat(stats.contentErrors(MessageFormat.MEASURED_TAG)).isEqualTo(1);
        assertThat(stats.exceptions(MessageFormat.MEASURED_TAG)).as(stats.firstError()).isZero();
    }

    private static byte[] message() {
        var m = Unpooled.buffer(PAYLOAD);
        MessageFormat.write(m, MessageFormat.MEASURED_TAG, 1, 0, PAYLOAD);
        return ByteBufUtil.getBytes(m);
    }
}
