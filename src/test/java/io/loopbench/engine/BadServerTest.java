package io.loopbench.engine;

import io.loopbench.engine.netty.HandlerEnds;
import io.loopbench.engine.protocol.EchoServerFixture;
import io.loopbench.engine.server.ServerCheck;
import io.loopbench.engine.server.ServerStats;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An echo server that misbehaves once is caught, whatever the protocol: one echo with a byte changed (a content
 * error), two echoes sent in each other's place (an order error), a connection closed with messages in flight (a
 * disconnect). The server is each protocol's own netty server end with one handler in front that damages the tenth
 * echo it writes (a stream write of several echoes has its first two swapped in place); the client runs against it
 * as a target, so that the damage is the only thing wrong.
 */
class BadServerTest {

    enum Damage { CORRUPT, REORDER, CLOSE }

    /** Which echo write is damaged: past the connection's first, well inside a 0.3 s phase. */
    private static final int NTH = 100;

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Protocol p : Protocol.values()) {
            if (p.grpc()) {
                continue; // grpc-java owns its pipeline: GrpcEchoTest damages its echoes in its service
            }
            for (Damage d : Damage.values()) {
                if (!(p == Protocol.UDP && d == Damage.CLOSE)) { // a datagram socket has no connection to lose
                    cases.add(Arguments.of(p, d));
                }
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void oneDamagedEchoFailsTheRepetitionWithItsOwnError(Protocol protocol, Damage damage) {
        RunSpec spec = quick().protocol(protocol).clients(1).window(4).warmupSeconds(0.0).seconds(0.3).build();
        ServerCheck check = new ServerCheck(0, new ServerStats());
        try (EchoServerFixture server = new EchoServerFixture(Protocols.of(spec), spec.payloadBytes(), end -> {
            end.addHandlerLast("damage", new Damaging(damage, spec.payloadBytes()));
            new HandlerEnds(spec.payloadBytes(), check, null, Protocols.of(spec)).server(end);
        })) {
            RunSpec target = spec.toBuilder().target("127.0.0.1:" + server.address().getPort()).build();

            RepetitionResult r = EngineTestSupport.measure(target).run().repetitions().getFirst();

            assertThat(r.ok()).as("a damaged echo must fail the repetition").isFalse();
            // the damaged echo may fall in the warm-up's first rounds or in the measured phase
            ErrorCounts e = r.checks().errors();
            ErrorCounts w = r.checks().warmup() == null ? e : r.checks().warmup().errors();
            String what = r.error() + "; warm-up: " + w.describeNonZero();
            switch (damage) {
                case CORRUPT -> assertThat(e.contentErrors() + w.contentErrors()).as(what).isPositive();
                case REORDER -> assertThat(e.orderErrors() + w.orderErrors()).as(what).isPositive();
                case CLOSE -> assertThat(e.disconnectErrors() + w.disconnectErrors()).as(what).isPositive();
            }
            assertThat(check.stats().contentErrors(0) + check.stats().contentErrors(1)).isZero();
        }
    }

    /**
     * Damages the {@value #NTH}th echo written on its connection — whatever the protocol's echo object (a stream's
     * bytes, a datagram, a WebSocket frame, an HTTP response) — and passes every other write on. Confined to its
     * channel's event loop.
     */
    static final class Damaging extends ChannelOutboundHandlerAdapter {
        private final Damage damage;
        private final int payloadBytes;
        private int writes;
        private Object held;
        private ChannelPromise heldPromise;

        Damaging(Damage damage, int payloadBytes) {
            this.damage = damage;
            this.payloadBytes = payloadBytes;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (++writes == NTH) {
                switch (damage) {
                    case CORRUPT -> {
                        ByteBuf content = msg instanceof ByteBufHolder h ? h.content() : (ByteBuf) msg;
                        int last = content.writerIndex() - 1; // a pattern byte: the header stays valid
                        content.setByte(last, ~content.getByte(last));
                    }
                    case REORDER -> {
                        if (msg instanceof ByteBuf stream && stream.readableBytes() >= 2 * payloadBytes) {
                            swapFirstTwo(stream); // a stream's write of several echoes
                        } else { // one echo: sent after the next one
                            held = msg;
                            heldPromise = promise;
                            return;
                        }
                    }
                    case CLOSE -> {
                        ReferenceCountUtil.release(msg);
                        ctx.close();
                        return;
                    }
                }
            }
            ctx.write(msg, promise);
            if (held != null) {
                ctx.write(held, heldPromise);
                held = null;
            }
        }

        private void swapFirstTwo(ByteBuf stream) {
            int at = stream.readerIndex();
            byte[] first = new byte[payloadBytes];
            stream.getBytes(at, first);
            stream.setBytes(at, stream, at + payloadBytes, payloadBytes);
            stream.setBytes(at + payloadBytes, first);
        }
    }
}
