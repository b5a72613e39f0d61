package io.loopbench.engine.protocol.http2;

import io.loopbench.engine.message.MessageFormat;
import io.loopbench.engine.offload.OffloadPool;
import io.loopbench.engine.protocol.EchoServerFixture;
import io.loopbench.engine.protocol.Http2Setup;
import io.loopbench.engine.protocol.tls.Tls;
import io.loopbench.engine.server.ReactiveEcho;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.netty.Connection;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link Http2#http2Setup()} records is what the ends of an HTTP/2 connection do — the netty execution's and the
 * reactive one's — read from their frame codecs once the connection is open: the settings each end's peer announced,
 * as the end applied them, and the connection window each end widened its own to.
 */
class Http2SetupTest {

    private static final int PAYLOAD = 256;

    private final Http2 http2 = new Http2(null);

    @Test
    void theNettyEndsAnnounceAndWidenWhatTheRecordSays() throws Exception {
        AtomicReference<Channel> server = new AtomicReference<>();
        try (EchoServerFixture fixture = new EchoServerFixture(http2, PAYLOAD, end -> {
            server.set(end.channel());
            end.channel().config().setAutoRead(true);
        })) {
            // connected once the server has answered the client's first PING, after its SETTINGS
            Connection client = http2.connect(fixture.loops, fixture.address(), PAYLOAD,
                    c -> c.channel().config().setAutoRead(true));
            try {
                assertThat(seenBy(client.channel())).isEqualTo(http2.http2Setup());
                assertThat(seenBy(server.get())).isEqualTo(http2.http2Setup());
            } finally {
                client.disposeNow();
            }
        }
    }

    /**
     * Reactor Netty's ends, HttpServer and HttpClient, announce and widen the same, over TLS too; the client's
     * connection, opened by its first echo request, is the TCP connection under the request's stream, and disposing
     * it closes that.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theReactiveEndsAnnounceAndWidenWhatTheRecordSays(boolean overTls) throws Exception {
        Http2 reactive = overTls ? new Http2(new Tls(null, SslProvider.JDK, Http2.ALPN)) : http2;
        ServerCheck check = new ServerCheck(0, new ServerStats());
        AtomicReference<Channel> server = new AtomicReference<>();
        try (EchoServerFixture fixture = new EchoServerFixture((loops, accepted) -> reactive.bindRequests(loops,
                EchoServerFixture.ANY_PORT, PAYLOAD, accepted, end -> server.set(end.channel()),
                (request, response) -> ReactiveEcho.http(request, response, check, OffloadPool.none()),
                check::refused))) {
            ByteBuf first = Unpooled.buffer(PAYLOAD);
            MessageFormat.write(first, MessageFormat.WARMUP_TAG, 0, 0, PAYLOAD);

            Connection connection = reactive.connectRequests(fixture.loops, fixture.address(), PAYLOAD, first,
                    () -> { }).connection();

            Channel client = connection.channel();
            try {
                assertThat(client).isNotInstanceOf(Http2StreamChannel.class);
                assertThat(seenBy(client)).isEqualTo(reactive.http2Setup());
                assertThat(seenBy(server.get())).isEqualTo(reactive.http2Setup());
                assertThat(check.stats().contentErrors(MessageFormat.WARMUP_TAG)).isZero();
            } finally {
                connection.disposeNow(Duration.ofSeconds(5));
            }
            assertThat(client.isActive()).isFalse();
        }
    }

    /**
     * On the end's loop: the concurrent streams, stream window and frame size its peer announced, and the window the
     * end refills its own side of the connection to.
     */
    static Http2Setup seenBy(Channel end) throws Exception {
        Http2FrameCodec codec = end.pipeline().get(Http2FrameCodec.class);
        return end.eventLoop().submit(() -> {
            Http2Connection c = codec.connection();
            return new Http2Setup(c.local().maxActiveStreams(), c.remote().flowController().initialWindowSize(),
                    c.local().flowController().initialWindowSize(c.connectionStream()),
                    codec.encoder().configuration().frameSizePolicy().maxFrameSize());
        }).get(5, TimeUnit.SECONDS);
    }
}
