package io.loopbench.agents;

import io.loopbench.cluster.ClusterSettings;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.util.List;

/**
 * Whether and how the service joins a cluster of agents as its coordinator ({@code loopbench.cluster.*}; environment
 * variables {@code LOOPBENCH_CLUSTER_ENABLED}, {@code LOOPBENCH_CLUSTER_SECRET}, …, the same names
 * {@code ./loopbench agent} reads). The fields other than {@code enabled} are {@link ClusterSettings}'. Immutable.
 *
 * @param enabled     join the cluster at start (off by default: the service then runs exactly as without agents)
 * @param name        the cluster's name
 * @param bindAddress the address the cluster transport listens on, which the agents reach
 * @param bindPort    the cluster transport's TCP port (failure detection: this + 100)
 * @param hosts       discovery by a static list of members (host or host:port); empty for the coordinator is fine:
 *                    the agents' lists name it
 * @param dnsQuery    discovery by DNS instead: a name whose A records are the members (a headless Service's)
 * @param secret      the shared secret (at least 16 characters)
 * @param encrypt     encrypt the members' messages with a key derived from the secret
 */
@ConfigurationProperties("loopbench.cluster")
public record ClusterProperties(@DefaultValue("false") boolean enabled,
                                @DefaultValue(ClusterSettings.DEFAULT_NAME) String name,
                                @DefaultValue("127.0.0.1") String bindAddress,
                                @DefaultValue("" + ClusterSettings.DEFAULT_PORT) int bindPort,
                                @DefaultValue({}) List<String> hosts,
                                String dnsQuery,
                                String secret,
                                @DefaultValue("false") boolean encrypt) {

    public ClusterSettings settings() {
        return new ClusterSettings(name, bindAddress, bindPort, hosts, dnsQuery, secret, encrypt);
    }

    /** Without the secret, which must never reach a log. */
    @Override
    public String toString() {
        return "ClusterProperties[enabled=" + enabled + ", " + settings() + "]";
    }
}
