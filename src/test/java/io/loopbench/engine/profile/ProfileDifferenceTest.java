package io.loopbench.engine.profile;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Two cases' CPU per round trip, layer by layer and frame by frame: the figures a comparison decides on. */
class ProfileDifferenceTest {

    private static final String LOOP = "[loopbench-epoll-0-1];io/netty/channel/epoll/EpollIoHandler.run;";
    private static final String SEND = LOOP + "io/netty/channel/unix/FileDescriptor.writeAddress;tcp_sendmsg_[k] ";
    private static final String PIPELINE = LOOP + "io/netty/channel/DefaultChannelPipeline.fireChannelRead ";

    static CpuProfile profile(int send, int pipeline) {
        CallTree t = new CallTree();
        t.addCollapsed(SEND + send + "\n" + PIPELINE + pipeline);
        return t.toProfile("test", "cpu", null, 1000);
    }

    @Test
    void eachLayerAndFrameIsGivenInCpuMicrosecondsPerRoundTripLargestChangeFirst() {
        // baseline: 1,000 samples = 1 s of CPU over a million round trips (1 µs each); the candidate sends for half
        ProfileDifference d = ProfileDifference.of(
                new ProfileDifference.Side(List.of(profile(600, 400)), 1.0, 1_000_000),
                new ProfileDifference.Side(List.of(profile(300, 400)), 0.7, 1_000_000));

        assertThat(d.baselineUsPerRoundTrip()).isCloseTo(1.0, within(1e-9));
        assertThat(d.candidateUsPerRoundTrip()).isCloseTo(0.7, within(1e-9));
        ProfileDifference.Change send = d.layers().getFirst();
        assertThat(send.name()).isEqualTo("kernel send");
        assertThat(send.layer()).isEqualTo(Layer.KERNEL_SEND);
        assertThat(send.baselineUsPerRoundTrip()).isCloseTo(0.6, within(1e-9));
        assertThat(send.candidateUsPerRoundTrip()).isCloseTo(0.3, within(1e-9));
        assertThat(send.changeUs()).isCloseTo(-0.3, within(1e-9));
        assertThat(send.ratio()).isCloseTo(0.5, within(1e-9));
        ProfileDifference.Change netty = d.layers().get(1);
        assertThat(netty.name()).isEqualTo("Netty pipeline");
        assertThat(netty.ratio()).isCloseTo(1.0, within(1e-9));
        assertThat(d.frames().getFirst().name()).isIn("io/netty/channel/unix/FileDescriptor.writeAddress",
                "tcp_sendmsg_[k]");
        assertThat(d.frames().getFirst().layer()).isNull();
        // one repetition's figure for a layer, as a comparison's verdict reads it
        assertThat(ProfileDifference.layerUsPerRoundTrip(profile(300, 400), Layer.KERNEL_SEND, 0.7, 1_000_000))
                .isCloseTo(0.3, within(1e-9));
    }

    @Test
    void aSideWithoutProfilesGivesNoDifference() {
        assertThat(ProfileDifference.of(new ProfileDifference.Side(List.of(), 1.0, 1),
                new ProfileDifference.Side(List.of(profile(1, 1)), 1.0, 1))).isNull();
    }
}
