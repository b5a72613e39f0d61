package io.loopbench.engine.process;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

/** When this process started, as Linux tells it, and what the JVM says of its own start. */
class StartupTest {

    @Test
    void theProcessStartedBeforeItsJvmAndAfterNoMoreThanTheJvmsAge() {
        long now = System.currentTimeMillis();
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();

        Long processStart = Startup.processStartMillis();

        assertThat(processStart).isNotNull();
        // /proc's clock ticks are 10 ms; the launcher runs before the JVM, within seconds
        assertThat(processStart).isLessThanOrEqualTo(jvmStart + 20).isGreaterThan(jvmStart - 30_000);
        assertThat(processStart).isLessThan(now);
        Startup s = Startup.current();
        assertThat(s.jvmStartMillis()).isBetween(-20L, 30_000L);
        Startup.echoed();
        Long firstEcho = Startup.current().firstEchoMillis();
        assertThat(firstEcho).isNotNull().isGreaterThanOrEqualTo(s.jvmStartMillis());
        Startup.echoed();
        assertThat(Startup.current().firstEchoMillis()).as("only the first echo counts").isEqualTo(firstEcho);
    }
}
