package io.loopbench.engine;

import io.loopbench.engine.server.Work;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkAndStatTest {

    @Test
    void workIsArknetsXorshiftSeededFromTheLastBytePlusOne() {
        assertThat(Work.run(0, (byte) 41)).isEqualTo(42);
        // v = 1: v ^= v<<13 -> 8193; v ^= v>>>7 -> 8257; v ^= v<<17 -> 8257 + (8257 << 17)
        assertThat(Work.run(1, (byte) 0)).isEqualTo(8257L + (8257L << 17));
        assertThat(Work.run(10_000, (byte) 0xFF)).isEqualTo(Work.run(10_000, (byte) 0xFF)).isNotZero();
    }

    @Test
    void statIsMedianMinMax() {
        assertThat(Stat.of(List.of(3, 1, 2))).isEqualTo(new Stat(2, 1, 3));
        assertThat(Stat.of(List.of(4.0, 1.0, 3.0, 10.0))).isEqualTo(new Stat(3.5, 1, 10));
        assertThat(Stat.of(List.of(7L))).isEqualTo(new Stat(7, 7, 7));
        assertThatThrownBy(() -> Stat.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
