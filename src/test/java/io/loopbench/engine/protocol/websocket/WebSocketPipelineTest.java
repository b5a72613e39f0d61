package io.loopbench.engine.protocol.websocket;

import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.protocol.EchoServerFixture;
import io.loopbench.engine.protocol.RawReads;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.netty.Connection;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What goes over the wire for websocket: the upgrade on /echo, then one binary frame per message each way — masked
 * from the client, unmasked from the server — seen as raw bytes at the head of each end's pipeline; a client is
 * handed over only after its upgrade; a request for another path gets 404.
 */
class WebSocketPipelineTest {

    private static final int PAYLOAD = 64;
    private static final int MESSAGES = 5;

    private EchoServerFixture server;
    private final WebSocket webSocket = new WebSocket(null);
    /** Raw reads at the head of the server end's pipeline, and the frames its echo end got. */
    private final Queue<byte[]> serverReads = new ConcurrentLinkedQueue<>();
    private final Queue<Integer> serverFrames = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void bind() {
        server = new EchoServerFixture(webSocket, PAYLOAD, end -> {
                    end.channel().pipeline().addFirst("raw", new RawReads(serverReads));
                    end.addHandlerLast("echo", new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            if (msg instanceof BinaryWebSocketFrame f) {
                                serverFrames.add(f.content().readableBytes());
                            }
                            ctx.writeAndFlush(msg);
                        }
                    });
                    end.channel().config().setAutoRead(true);
                });
    }

    @AfterEach
    void close() {
        server.close();
    }

    @Test
    void oneBinaryFramePerMessageEachWayMaskedFromTheClientAfterTheUpgrade() throws Exception {
        Queue<byte[]> clientReads = new ConcurrentLinkedQueue<>();
        BlockingQueue<ByteBuf> echoes = new LinkedBlockingQueue<>();
        var pipelineAtAttach = new CompletableFuture<List<String>>();
        Connection client = webSocket.connect(server.loops, server.address(), PAYLOAD, c -> {
            pipelineAtAttach.complete(c.channel().pipeline().names());
            c.channel().pipeline().addFirst("raw", new RawReads(clientReads));
            c.addHandlerLast("frames", new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    BinaryWebSocketFrame f = (BinaryWebSocketFrame) msg;
                    echoes.add(Unpooled.copiedBuffer(f.content()));
                    f.release();
                }
            });
        });
        try {
            // Handed over upgraded: the HTTP codec is gone, the WebSocket frame codec in its place.
            assertThat(pipelineAtAttach.get(10, TimeUnit.SECONDS))
                    .noneMatch(n -> n.contains("HttpClientCodec"))
                    .anyMatch(n -> n.toLowerCase().contains("ws-decoder") || n.contains("WebSocket"));
            for (int seq = 0; seq < MESSAGES; seq++) {
                ByteBuf m = Unpooled.buffer(PAYLOAD);
                MessageFormat.write(m, MessageFormat.MEASURED_TAG, 1, seq, PAYLOAD);
                client.channel().writeAndFlush(new BinaryWebSocketFrame(m));
                ByteBuf echo = echoes.poll(10, TimeUnit.SECONDS);
                assertThat(echo).isNotNull();
                assertThat(echo.readableBytes()).isEqualTo(PAYLOAD);
                assertThat(MessageFormat.hasValidHeader(echo, 0)).isTrue();
            }
        } finally {
            client.disposeNow();
        }
        assertThat(serverFrames).hasSize(MESSAGES).allMatch(n -> n == PAYLOAD);
        // Client to server: FIN + binary, the mask bit and a 4-byte key: 2 + 4 + payload bytes per frame.
        List<byte[]> inbound = serverReads.stream().filter(b -> (b[0] & 0xff) == 0x82).toList();
        assertThat(inbound).hasSize(MESSAGES).allSatisfy(b -> {
            assertThat(b).hasSize(2 + 4 + PAYLOAD);
            assertThat(b[1] & 0xff).isEqualTo(0x80 | PAYLOAD);
        });
        assertThat(new String(serverReads.peek(), StandardCharsets.ISO_8859_1)).startsWith("GET /echo HTTP/1.1");
        // Server to client: FIN + binary, no mask: 2 + payload bytes per frame.
        assertThat(clientReads).hasSize(MESSAGES).allSatisfy(b -> {
            assertThat(b).hasSize(2 + PAYLOAD);
            assertThat(b[0] & 0xff).isEqualTo(0x82);
            assertThat(b[1] & 0xff).isEqualTo(PAYLOAD);
        });
    }

    @Test
    void anotherPathGets404() throws Exception {
        try (Socket plain = new Socket()) {
            plain.connect(server.address(), 5000);
            plain.setSoTimeout(5000);
            plain.getOutputStream().write(("GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = plain.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(response).startsWith("HTTP/1.1 404");
        }
    }
}
