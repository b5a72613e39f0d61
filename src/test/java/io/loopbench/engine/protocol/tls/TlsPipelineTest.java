package io.loopbench.engine.protocol.tls;

import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.protocol.EchoServerFixture;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.netty.Connection;

import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where TLS sits in a Netty end's pipeline: an echo end's handlers come after the SslHandler, so that what they write
 * is encrypted and what they read was decrypted; a client is handed over only once its handshake is done, so that
 * no message's RTT includes it; a plaintext peer gets no echo.
 */
class TlsPipelineTest {

    private EchoServerFixture server;
    private final CompletableFuture<List<String>> serverPipeline = new CompletableFuture<>();
    private final Tls tls = new Tls(null, SslProvider.JDK);

    /** Echoes whatever it reads: the server end's last handler here. */
    static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }

    @BeforeEach
    void bind() {
        server = new EchoServerFixture(tls, 64, end -> {
            end.addHandlerLast("echo", new Echo());
            end.channel().config().setAutoRead(true);
            serverPipeline.complete(end.channel().pipeline().names());
        });
    }

    @AfterEach
    void close() {
        server.close();
    }

    @Test
    void echoHandlersSitAfterTlsAndAClientIsHandedOverAfterItsHandshake() throws Exception {
        var handshakeDoneAtAttach = new CompletableFuture<Boolean>();
        var clientPipeline = new CompletableFuture<List<String>>();
        Connection client = tls.connect(server.loops, server.address(), 64, c -> {
            handshakeDoneAtAttach.complete(c.channel().pipeline().get(SslHandler.class).handshakeFuture().isDone());
            c.addHandlerLast("probe", new ChannelInboundHandlerAdapter());
            clientPipeline.complete(c.channel().pipeline().names());
        });
        try {
            assertThat(handshakeDoneAtAttach.get(10, TimeUnit.SECONDS)).isTrue();
            assertAfterTls(clientPipeline.get(10, TimeUnit.SECONDS), "probe");
            assertAfterTls(serverPipeline.get(10, TimeUnit.SECONDS), "echo");
            assertThat(tls.tlsSession()).isNotNull();
            assertThat(tls.tlsSession().protocol()).isIn("TLSv1.3", "TLSv1.2");
        } finally {
            client.disposeNow();
        }
    }

    @Test
    void aPlaintextPeerGetsNoEcho() throws Exception {
        var message = Unpooled.buffer(64);
        MessageFormat.write(message, MessageFormat.MEASURED_TAG, 1, 1, 64);
        byte[] sent = new byte[64];
        message.getBytes(0, sent);
        try (Socket plain = new Socket()) {
            plain.connect(server.address(), 5000);
            plain.setSoTimeout(5000);
            plain.getOutputStream().write(sent);
            byte[] got = new byte[64];
            int n;
            try {
                InputStream in = plain.getInputStream();
                n = in.readNBytes(got, 0, got.length);
            } catch (SocketTimeoutException | java.net.SocketException e) {
                n = 0; // nothing came back before the server gave up on the handshake
            }
            assertThat(java.util.Arrays.copyOf(got, n)).isNotEqualTo(sent);
            assertThat(new String(got, 0, Math.min(n, 3), java.nio.charset.StandardCharsets.ISO_8859_1))
                    .isNotEqualTo("ANB");
        }
    }

    private static void assertAfterTls(List<String> names, String handler) {
        int tlsAt = -1;
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).toLowerCase().contains("ssl")) {
                tlsAt = i;
            }
        }
        assertThat(tlsAt).as("an SslHandler in %s", names).isGreaterThanOrEqualTo(0);
        assertThat(names.indexOf(handler)).as("%s in %s", handler, names).isGreaterThan(tlsAt);
    }
}
