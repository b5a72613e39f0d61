package io.loopbench.worker;

import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RepetitionTimeTest {

    @Test
    void aFixedWarmUpIsPlannedAsItIsAndAnAutoOneAQuarterOfTheWayToItsCap() {
        RunSpec fixed = RunSpec.builder().warmupMode(WarmupMode.FIXED).warmupSeconds(3.0).seconds(2.0).build();
        RunSpec auto = RunSpec.builder().warmupMode(WarmupMode.AUTO).warmupSeconds(1.0).warmupMaxSeconds(9.0)
                .seconds(2.0).build();
        RunSpec none = RunSpec.builder().warmupMode(WarmupMode.AUTO).warmupSeconds(0.0).seconds(2.0).build();

        assertThat(RepetitionTime.warmupSeconds(fixed)).isEqualTo(3.0);
        assertThat(RepetitionTime.warmupSeconds(auto)).isCloseTo(3.0, within(1e-9));
        assertThat(RepetitionTime.warmupSeconds(none)).isZero();
    }

    @Test
    void aForkedRepetitionAddsTheWorkersOverheadAndAnInProcessOneTheDrainsOnly() {
        RunSpec spec = RunSpec.builder().warmupMode(WarmupMode.FIXED).warmupSeconds(1.0).seconds(2.0).build();

        assertThat(RepetitionTime.seconds(spec, true)).isEqualTo(3.0 + RepetitionTime.FORKED_OVERHEAD_SECONDS);
        assertThat(RepetitionTime.seconds(spec, false)).isEqualTo(3.0 + RepetitionTime.IN_PROCESS_OVERHEAD_SECONDS);
        assertThat(RepetitionTime.FORKED_OVERHEAD_SECONDS).isGreaterThan(RepetitionTime.IN_PROCESS_OVERHEAD_SECONDS);
    }
}
