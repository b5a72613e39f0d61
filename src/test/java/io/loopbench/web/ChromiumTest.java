package io.loopbench.web;

import io.loopbench.SystemTest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The browser fixture's sweep of a killed test JVM's driver: the fault (a chromedriver whose parent is gone) made by
 * hand, by a shell that starts one in the background and exits.
 */
@SystemTest
class ChromiumTest {

    @Test
    void aDriverWhoseParentIsGoneIsStoppedAndARunningTestsDriverIsNot() throws Exception {
        Chromium.assumeInstalled();
        Process shell = new ProcessBuilder("sh", "-c", Chromium.DRIVER + " --port=0 >/dev/null 2>&1 & echo $!")
                .start();
        long orphan = Long.parseLong(new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .strip());
        assertThat(shell.waitFor(10, TimeUnit.SECONDS)).isTrue();
        ProcessHandle handle = ProcessHandle.of(orphan).orElseThrow();
        // the shell forks before it execs the driver: until then the orphan's command is still the shell's
        String driver = Chromium.driverCommand();
        for (int i = 0; i < 200 && !handle.info().command().map(driver::equals).orElse(false); i++) {
            Thread.sleep(50);
        }
        try {
            Assumptions.assumeTrue(handle.parent().map(ProcessHandle::pid).orElse(1L) == 1L,
                    "skipped: an orphan is reparented to a subreaper here, not to init");
            Process child = new ProcessBuilder(Chromium.DRIVER.toString(), "--port=0")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start(); // this JVM's, as a test's driver is
            try {
                assertThat(Chromium.stopOrphans()).contains(orphan).doesNotContain(child.pid());
                assertThat(handle.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
                assertThat(child.isAlive()).isTrue();
            } finally {
                child.destroyForcibly();
            }
        } finally {
            handle.destroyForcibly();
        }
    }
}
