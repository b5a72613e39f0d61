package io.loopbench.engine;

import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.RunSpec;
import org.junit.jupiter.api.Test;

import static io.loopbench.engine.EngineTestSupport.CARRIERS;
import static io.loopbench.engine.EngineTestSupport.loopThreads;
import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Virtual-thread runs are carried by exactly ioThreads carriers of the JDK's scheduler, which this test JVM fixes at
 * {@link EngineTestSupport#CARRIERS} (forked workers get theirs from their options: see ForkedWorkerTest).
 */
class VirtualThreadCarriersTest {

    @Test
    void theJvmsCarriersCarryTheRunAndItsVirtualThreadsEndWithIt() {
        // 6 clients: 12 connection ends, more runnable virtual threads than carriers
        RunSpec spec = quick(Execution.VIRTUAL_THREADS).clients(6).warmupSeconds(0.1).seconds(0.4).build();

        MeasurementResult result = EngineTestSupport.measure(spec).run();

        // the subject is who carries the run: a client starved on a busy machine (blocking ends on two carriers can
        // starve, as docs/service.md, "Execution styles", says) is still carried, and every one of its echoes validated
        EngineTestSupport.assertValidatedByEveryClient(result.repetitions().getFirst(), 6);
        assertThat(result.repetitions().getFirst().setup().eventLoops()).isEqualTo(CARRIERS);
        assertThat(loopThreads()).isZero();
    }

    @Test
    void aRunWhoseIoThreadsDifferFromTheJvmsCarriersIsRefusedNamingTheOptionsThatWouldFitIt() {
        RunSpec spec = quick(Execution.VIRTUAL_THREADS).ioThreads(CARRIERS + 1).build();

        assertThatThrownBy(() -> Measurement.of(spec)).isInstanceOfSatisfying(InvalidSpecException.class,
                e -> assertThat(e.violations()).singleElement().satisfies(v -> {
                    assertThat(v.field()).isEqualTo("ioThreads");
                    assertThat(v.allowed()).startsWith(CARRIERS + ", the number of virtual-thread carriers of the JVM")
                            .contains("-Djdk.virtualThreadScheduler.parallelism=" + (CARRIERS + 1));
                }));
    }
}
