package io.loopbench.cli;

import io.loopbench.cluster.ClusterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./loopbench agent}'s settings: the service's environment variables, flags over them, refusals. */
class AgentCommandTest {

    private final StringWriter err = new StringWriter();

    private AgentCommand command(Map<String, String> environment, String... args) {
        AgentCommand c = new AgentCommand();
        c.environment = environment;
        new CommandLine(c).setErr(new PrintWriter(err, true)).parseArgs(args);
        return c;
    }

    private int run(Map<String, String> environment, String... args) {
        AgentCommand c = new AgentCommand();
        c.environment = environment;
        return new CommandLine(c).setErr(new PrintWriter(err, true)).execute(args);
    }

    @Test
    void readsTheSameEnvironmentVariablesAsTheService() throws Exception {
        ClusterSettings s = command(Map.of("LOOPBENCH_CLUSTER_NAME", "lab", "LOOPBENCH_CLUSTER_BINDADDRESS",
                "10.0.0.3", "LOOPBENCH_CLUSTER_BINDPORT", "7900", "LOOPBENCH_CLUSTER_HOSTS", "10.0.0.2, 10.0.0.4:7901",
                "LOOPBENCH_CLUSTER_SECRET", "a-secret-long-enough", "LOOPBENCH_CLUSTER_ENCRYPT", "true")).settings();
        assertThat(s).isEqualTo(new ClusterSettings("lab", "10.0.0.3", 7900, List.of("10.0.0.2", "10.0.0.4:7901"),
                null, "a-secret-long-enough", true));
        assertThat(s.violations()).isEmpty();
    }

    @Test
    void flagsOverrideTheEnvironmentAndTheSecretComesFromAFile(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), "from-a-file-0123456789\n");
        ClusterSettings s = command(Map.of("LOOPBENCH_CLUSTER_NAME", "lab", "LOOPBENCH_CLUSTER_SECRET", "ignored"),
                "--cluster-name", "other", "--bind-address", "127.0.0.1", "--dns-query", "agents.bench.svc",
                "--secret-file", secret.toString(), "--no-encrypt").settings();
        assertThat(s).isEqualTo(new ClusterSettings("other", "127.0.0.1", ClusterSettings.DEFAULT_PORT, List.of(),
                "agents.bench.svc", "from-a-file-0123456789", false));
    }

    @Test
    void invalidSettingsExit2NamingEachWithoutJoiningOrPrintingTheSecret() {
        int code = run(Map.of("LOOPBENCH_CLUSTER_SECRET", "too-short"), "--bind-address", "0.0.0.0",
                "--hosts", "a:0", "--dns-query", "x.svc");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("cluster.bindAddress = 0.0.0.0", "cluster.hosts = a:0",
                "cluster.hosts × cluster.dnsQuery", "cluster.secret = (9 characters)").doesNotContain("too-short");
        assertThat(run(Map.of("LOOPBENCH_CLUSTER_BINDPORT", "seven"))).isEqualTo(2);
        assertThat(err.toString()).contains("cluster.bindPort = seven");
    }

    @Test
    void theAgentIsALoopbenchSubcommand() {
        StringWriter out = new StringWriter();
        assertThat(LoopbenchCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "agent", "--help"))
                .isZero();
        assertThat(out.toString()).contains("--secret-file", "LOOPBENCH_CLUSTER_SECRET", "--dns-query");
    }
}
