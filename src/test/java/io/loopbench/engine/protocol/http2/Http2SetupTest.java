package io.loopbench.engine.protocol.http2;

import io.loopbench.engine.protocol.EchoServerFixture;
import io.loopbench.engine.protocol.Http2Setup;
import io.netty.channel.Channel;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2FrameCodec;
import org.junit.jupiter.api.Test;
import reactor.netty.Connection;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link Http2#http2Setup()} records is what the ends of an h2c connection do, read from their frame codecs once
 * the connection is open: the settings each end's peer announced, as the end applied them, and the connection window
 * each end widened its own to.
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
