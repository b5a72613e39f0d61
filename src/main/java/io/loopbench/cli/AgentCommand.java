package io.loopbench.cli;

import io.loopbench.cluster.Agent;
import io.loopbench.cluster.ClusterSettings;
import io.loopbench.cluster.MemberFacts;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.Violation;
import org.jgroups.logging.LogFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code agent}: joins the cluster the service coordinates, as an agent, and stays until stopped (SIGTERM or Ctrl-C:
 * it leaves the cluster, which the coordinator sees at once). Each option defaults to the environment variable the
 * service reads for the same setting ({@code LOOPBENCH_CLUSTER_NAME}, {@code LOOPBENCH_CLUSTER_BINDADDRESS}, …), so
 * one set of variables configures both; the secret comes from {@code LOOPBENCH_CLUSTER_SECRET} or a file, never from
 * the command line, where other users of the host would see it. Exit code 2: invalid settings (each named); 1: the
 * cluster refused this agent or it could not join.
 *
 * <p>Threads: picocli's thread joins and then waits for the JVM's shutdown hook, which closes the agent; JGroups'
 * threads run the agent meanwhile.
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = "Join the cluster as an agent and serve the coordinator until stopped.")
public final class AgentCommand implements Callable<Integer> {

    @Option(names = "--cluster-name", description = "The cluster's name (default: loopbench; env "
            + "LOOPBENCH_CLUSTER_NAME).")
    String clusterName;

    @Option(names = "--bind-address", description = "This host's address on the network the members share; the "
            + "coordinator reaches the agent there (env LOOPBENCH_CLUSTER_BINDADDRESS; default 127.0.0.1).")
    String bindAddress;

    @Option(names = "--bind-port", description = "The cluster transport's TCP port; failure detection uses it + 100 "
            + "(env LOOPBENCH_CLUSTER_BINDPORT; default 7800).")
    Integer bindPort;

    @Option(names = "--hosts", split = ",", description = "Discovery by a static list: host or host:port, "
            + "comma-separated; the coordinator's is enough (env LOOPBENCH_CLUSTER_HOSTS).")
    List<String> hosts;

    @Option(names = "--dns-query", description = "Discovery by DNS instead: a name whose A records are the members, "
            + "such as a headless Service's (env LOOPBENCH_CLUSTER_DNSQUERY).")
    String dnsQuery;

    @Option(names = "--secret-file", description = "A file holding the shared secret (one line); otherwise env "
            + "LOOPBENCH_CLUSTER_SECRET.")
    Path secretFile;

    @Option(names = "--encrypt", negatable = true, description = "Encrypt the members' messages with a key derived "
            + "from the secret; the coordinator must be set alike (env LOOPBENCH_CLUSTER_ENCRYPT; default false).")
    Boolean encrypt;

    @Option(names = "--member-name", description = "This agent's name in the cluster (default: the host's name).")
    String memberName;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec commandSpec;

    /** Where unset options come from: the process's environment (a test gives its own). */
    Map<String, String> environment = System.getenv();

    @Override
    public Integer call() throws Exception {
        PrintWriter err = commandSpec.commandLine().getErr();
        ClusterSettings settings;
        try {
            settings = settings().checked();
        } catch (InvalidSpecException e) {
            for (Violation v : e.violations()) {
                err.println("loopbench agent: " + v.message());
            }
            return 2;
        } catch (IOException e) {
            err.println("loopbench agent: cannot read --secret-file: " + e);
            return 2;
        }
        // JGroups would log through the class path's SLF4J binding, which unconfigured prints its debug output.
        LogFactory.useJdkLogger(true);
        String name = memberName != null ? memberName : MemberFacts.localHostName();
        CountDownLatch stopped = new CountDownLatch(1);
        Agent agent;
        try {
            agent = Agent.join(settings, name, () -> {
                // The agent has stopped whatever load the coordinator had placed here before this runs.
                err.println("loopbench agent: lost the coordinator; any load it had placed here is stopped");
                err.flush();
            });
        } catch (SecurityException e) {
            err.println("loopbench agent: the cluster refused this agent: " + e.getMessage()
                    + " (is the secret the coordinator's?)");
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            agent.close();
            stopped.countDown();
        }, "loopbench-agent-stop"));
        err.println("loopbench agent: " + name + " joined cluster '" + settings.name() + "' at "
                + agent.endpoint() + ", members now: " + agent.members().size() + "; stop with Ctrl-C");
        err.flush();
        stopped.await();
        return 0;
    }

    /** The settings the options and the environment give; unchecked. */
    ClusterSettings settings() throws IOException {
        String secret = secretFile != null ? Files.readString(secretFile).strip() : env("secret", null);
        return new ClusterSettings(
                clusterName != null ? clusterName : env("name", ClusterSettings.DEFAULT_NAME),
                bindAddress != null ? bindAddress : env("bind-address", "127.0.0.1"),
                bindPort != null ? bindPort : port(env("bind-port", String.valueOf(ClusterSettings.DEFAULT_PORT))),
                hosts != null ? hosts : list(env("hosts", "")),
                dnsQuery != null ? dnsQuery : env("dns-query", null),
                secret,
                encrypt != null ? encrypt : Boolean.parseBoolean(env("encrypt", "false")));
    }

    private String env(String property, String fallback) {
        String v = environment.get(ClusterSettings.environmentVariable(property));
        return v == null || v.isBlank() ? fallback : v.strip();
    }

    private static List<String> list(String commaSeparated) {
        return commaSeparated.isBlank() ? List.of()
                : List.of(commaSeparated.split(",")).stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static int port(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new InvalidSpecException(List.of(new Violation("cluster.bindPort", text, "1 … "
                    + ClusterSettings.MAX_PORT)));
        }
    }
}
