package io.loopbench.engine;

import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Target;
import io.loopbench.engine.spec.Violation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/** Only the client side, against an echo server that is not loopbench's: a plain blocking echo written here. */
class TargetRunTest {

    /** A plain echo server: TCP copies every byte back, UDP sends every datagram back to its sender. */
    static final class PlainEchoServer implements AutoCloseable {
        final ServerSocket tcp;
        final DatagramSocket udp;

        PlainEchoServer() throws IOException {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            tcp = new ServerSocket(0, 50, loopback);
            udp = new DatagramSocket(0, loopback);
            Thread.ofVirtual().start(this::acceptLoop);
            Thread.ofVirtual().start(this::datagramLoop);
        }

        private void acceptLoop() {
            try {
                while (true) {
                    Socket s = tcp.accept();
                    Thread.ofVirtual().start(() -> copy(s));
                }
            } catch (IOException e) {
                // closed
            }
        }

        private static void copy(Socket s) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // peer gone
            }
        }

        private void datagramLoop() {
            byte[] buf = new byte[65_536];
            try {
                while (true) {
                    DatagramPacket p = new DatagramPacket(buf, buf.length);
                    udp.receive(p);
                    udp.send(new DatagramPacket(p.getData(), p.getLength(), p.getSocketAddress()));
                }
            } catch (IOException e) {
                // closed
            }
        }

        String target(Protocol p) {
            return "127.0.0.1:" + (p == Protocol.TCP ? tcp.getLocalPort() : udp.getLocalPort());
        }

        @Override
        public void close() throws IOException {
            tcp.close();
            udp.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Protocol.class, names = {"TCP", "UDP"}) // a plain server; tcps: TlsEchoTest
    void theClientSideMeasuresAgainstAPlainEchoServer(Protocol protocol) throws Exception {
        try (PlainEchoServer server = new PlainEchoServer()) {
            RunSpec spec = quick().protocol(protocol).ioModel(IoModel.SHARDED).target(server.target(protocol)).build();

            RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

            EngineTestSupport.assertValidatedByEveryClient(r, spec.clients());
            assertThat(r.setup().remote()).isTrue();
            assertThat(r.setup().serverAddress()).endsWith(server.target(protocol).substring("127.0.0.1".length()));
            assertThat(r.setup().serverChannel()).isNull();
            assertThat(r.setup().connectionsOnOneThread()).isNull();
            assertThat(r.throughput().messages()).isPositive().isEqualTo(r.throughput().messagesSent());
            assertThat(r.checks().errors().total()).isZero();
            if (protocol == Protocol.UDP) {
                assertThat(r.setup().udpBuffers().serverReceiveBytes()).isNull();
                assertThat(r.setup().udpBuffers().clientReceiveMinBytes()).isPositive();
            }
        }
    }

    @Test
    void aLoopbackPairIsNotRemote() {
        RepetitionResult r = EngineTestSupport.measure(quick().build()).run().repetitions().getFirst();
        assertThat(r.setup().remote()).isFalse();
        assertThat(r.setup().serverAddress()).startsWith("/127.0.0.1:");
    }

    @Test
    void targetsMustBeHostAndPortAndWorkBelongsToTheServer() {
        assertThat(RunSpec.builder().target("localhost").build().violations()).extracting(Violation::field)
                .containsExactly("target");
        assertThat(RunSpec.builder().target("::1:7").build().violations()).extracting(Violation::field)
                .containsExactly("target");
        assertThat(RunSpec.builder().target("127.0.0.1:70000").build().violations()).hasSize(1);
        assertThat(RunSpec.builder().target("[::1]:7").build().violations()).isEmpty();
        assertThat(Target.parse("[::1]:7")).contains(new Target("::1", 7));
        assertThat(RunSpec.builder().target("127.0.0.1:7").work(10).build().violations())
                .extracting(Violation::field).containsExactly("work");
    }
}
