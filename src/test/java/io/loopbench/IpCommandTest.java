package io.loopbench;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static io.loopbench.IpCommand.ip;
import static io.loopbench.IpCommand.removeLeftoversOfDeadTestJvms;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sweep of a killed test JVM's namespaces: the fault it exists for (a leftover link holding the addresses a
 * later run routes to) is made here by hand, under the name a dead JVM's test would have given it.
 */
@SystemTest
class IpCommandTest {

    @Test
    void aDeadJvmsNamespaceAndLinkAreRemovedAndALivingOnesAreKept() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "skipped: network namespaces and veth links need root");
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        long dead = gone.pid();
        Assumptions.assumeFalse(ProcessHandle.of(dead).isPresent(), "the pid was taken again at once");
        String deadNamespace = "loopbench-test-" + dead;
        String deadLink = "lbt" + dead % 100_000 + "a";
        String livingNamespace = "loopbench-cluster-" + ProcessHandle.current().pid() + "-9";
        try {
            ip("netns", "add", deadNamespace);
        } catch (IOException e) {
            Assumptions.abort("skipped: this machine does not let the tests create a network namespace (" + e
                    .getMessage().strip() + ")");
        }
        try {
            ip("netns", "add", livingNamespace);
            ip("link", "add", deadLink, "type", "veth", "peer", "name", deadLink + "x");
            ip("link", "set", deadLink + "x", "netns", deadNamespace);
            ip("addr", "add", "10.231.76.1/30", "dev", deadLink);
            ip("link", "set", deadLink, "up");

            assertThat(removeLeftoversOfDeadTestJvms()).contains(deadNamespace).doesNotContain(livingNamespace);

            assertThat(ip("netns", "list")).doesNotContain(deadNamespace).contains(livingNamespace);
            assertThat(ip("-br", "link")).doesNotContain(deadLink);
            assertThat(ip("-br", "addr")).doesNotContain("10.231.76.1");
        } finally {
            for (String[] args : new String[][]{{"link", "del", deadLink}, {"netns", "del", deadNamespace},
                    {"netns", "del", livingNamespace}}) {
                try {
                    ip(args);
                } catch (IOException e) {
                    // removed by the sweep, or never made
                }
            }
        }
    }
}
