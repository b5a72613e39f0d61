package io.loopbench.engine;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.loopbench.engine.EngineTestSupport.loopThreads;
import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/** Virtual-thread runs are carried by exactly ioThreads carrier threads of their own, gone once the run ends. */
class VirtualThreadCarriersTest {

    @ParameterizedTest(name = "ioThreads {0}")
    @ValueSource(ints = {1, 3})
    void theConfiguredNumberOfCarriersCarriesTheRun(int ioThreads) throws Exception {
        // 6 clients: 12 connection ends, more runnable virtual threads than carriers at any time
        RunSpec spec = quick().execution(Execution.VIRTUAL_THREADS).ioThreads(ioThreads).clients(6)
                .warmupSeconds(0.1).seconds(0.4).build();
        Set<Thread> carriersSeen = ConcurrentHashMap.newKeySet();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sampler = Thread.ofPlatform().start(() -> {
            while (running.get()) {
                Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().startsWith(Carriers.THREAD_PREFIX))
                        .forEach(carriersSeen::add);
                Thread.onSpinWait();
            }
        });

        MeasurementResult result;
        try {
            result = Measurement.of(spec).run();
        } finally {
            running.set(false);
            sampler.join();
        }

        assertThat(result.ok()).as(result.error()).isTrue();
        assertThat(carriersSeen).hasSize(ioThreads);
        assertThat(result.repetitions().getFirst().eventLoops()).isEqualTo(ioThreads);
        assertThat(loopThreads()).isZero();
    }
}
