package io.loopbench.cluster;

import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.Violation;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * How a member joins the cluster: the same settings for the coordinator (the service's {@code loopbench.cluster.*})
 * and for an agent ({@code ./loopbench agent}'s flags, or the same environment variables).
 *
 * @param name        the cluster's name; members join only a cluster of the same name
 * @param bindAddress the address the cluster transport listens on and is reached at by the other members (a
 *                    concrete address, not a wildcard: it is what the others connect to)
 * @param bindPort    the cluster transport's TCP port, the same on every host unless the host list says otherwise;
 *                    failure detection listens on this port + 100 (or one of the next 3)
 * @param hosts       discovery by a static list: the members to ask for the cluster, each {@code host} (at
 *                    {@code bindPort}) or {@code host:port} ({@code [v6]:port}); the coordinator's is enough
 * @param dnsQuery    discovery by DNS instead (Kubernetes): a name whose A records are the members' addresses, such as
 *                    a headless Service's {@code name.namespace.svc.cluster.local}
 * @param secret      the shared secret every member must hold: joins and the coordinator's answers are authenticated
 *                    with keys derived from it (at least {@value #MIN_SECRET_LENGTH} characters)
 * @param encrypt     whether every message between members (above discovery and failure detection) is encrypted with
 *                    a key derived from the secret
 */
public record ClusterSettings(String name, String bindAddress, int bindPort, List<String> hosts, String dnsQuery,
                              String secret, boolean encrypt) {

    public static final String DEFAULT_NAME = "loopbench";
    public static final int DEFAULT_PORT = 7800;
    /** Failure detection's port is the transport's plus this (JGroups' FD_SOCK2 offset). */
    public static final int FAILURE_DETECTION_PORT_OFFSET = 100;
    /** The highest transport port: failure detection's must fit above it. */
    public static final int MAX_PORT = 65535 - FAILURE_DETECTION_PORT_OFFSET - 3;
    /** Shorter secrets are refused: the keys derived from it are only as strong as it is. */
    public static final int MIN_SECRET_LENGTH = 16;

    /** The service's properties for these settings are {@code loopbench.cluster.<name>}. */
    public static final String PROPERTY_PREFIX = "loopbench.cluster.";
    /** The names of those properties (in Spring's kebab case), one per component, plus the service's switch. */
    public static final List<String> PROPERTIES = List.of("enabled", "name", "bind-address", "bind-port", "hosts",
            "dns-query", "secret", "encrypt");

    /**
     * The environment variable that sets property {@code name} (of {@link #PROPERTIES}) for the service (Spring's
     * rule: dots to underscores, dashes dropped, upper case) and, by the same name, for {@code ./loopbench agent}:
     * one set of variables configures both, in a shell or a container.
     */
    public static String environmentVariable(String name) {
        if (!PROPERTIES.contains(name)) {
            throw new IllegalArgumentException("no cluster property " + name);
        }
        return (PROPERTY_PREFIX + name).replace('.', '_').replace("-", "").toUpperCase(java.util.Locale.ROOT);
    }

    public ClusterSettings {
        hosts = hosts == null ? List.of() : List.copyOf(hosts);
    }

    /** Every rule these settings break, all at once; empty when they are usable. */
    public List<Violation> violations() {
        List<Violation> v = new ArrayList<>();
        if (name == null || name.isBlank()) {
            v.add(new Violation("cluster.name", String.valueOf(name), "a non-empty name"));
        }
        if (bindAddress == null || bindAddress.isBlank()) {
            v.add(new Violation("cluster.bindAddress", String.valueOf(bindAddress),
                    "this host's address on the network the members share"));
        } else {
            try {
                InetAddress a = InetAddress.getByName(bindAddress);
                if (a.isAnyLocalAddress()) {
                    v.add(new Violation("cluster.bindAddress", bindAddress,
                            "a concrete address the other members can reach, not a wildcard"));
                }
            } catch (UnknownHostException e) {
                v.add(new Violation("cluster.bindAddress", bindAddress, "a name or address that resolves here"));
            }
        }
        if (bindPort < 1 || bindPort > MAX_PORT) {
            v.add(new Violation("cluster.bindPort", String.valueOf(bindPort), "1 … " + MAX_PORT));
        }
        boolean byDns = dnsQuery != null && !dnsQuery.isBlank();
        if (byDns && !hosts.isEmpty()) {
            v.add(new Violation("cluster.hosts × cluster.dnsQuery", hosts + " × " + dnsQuery,
                    "one way of discovery: a static host list or a DNS query, not both"));
        }
        for (String h : hosts) {
            try {
                parseHost(h, bindPort);
            } catch (IllegalArgumentException e) {
                v.add(new Violation("cluster.hosts", h, "host or host:port ([v6]:port), port 1 … 65535"));
            }
        }
        if (secret == null || secret.length() < MIN_SECRET_LENGTH) {
            v.add(new Violation("cluster.secret", secret == null ? "null" : "(" + secret.length() + " characters)",
                    "a shared secret of at least " + MIN_SECRET_LENGTH + " characters"));
        }
        return v;
    }

    /** These settings, or an {@link InvalidSpecException} naming every rule they break. */
    public ClusterSettings checked() {
        List<Violation> v = violations();
        if (!v.isEmpty()) {
            throw new InvalidSpecException(v);
        }
        return this;
    }

    /** Without the secret, which must never reach a log. */
    @Override
    public String toString() {
        return "ClusterSettings[name=" + name + ", bindAddress=" + bindAddress + ", bindPort=" + bindPort + ", hosts="
                + hosts + ", dnsQuery=" + dnsQuery + ", secret=" + (secret == null ? "none" : "(hidden)")
                + ", encrypt=" + encrypt + "]";
    }

    /** The static host list as socket addresses (unresolved names are resolved by discovery, each time it runs). */
    public List<InetSocketAddress> hostAddresses() {
        return hosts.stream().map(h -> parseHost(h, bindPort)).toList();
    }

    static InetSocketAddress parseHost(String text, int defaultPort) {
        String t = text.strip();
        String host = t;
        int port = defaultPort;
        if (t.startsWith("[")) {
            int end = t.indexOf(']');
            if (end < 0) {
                throw new IllegalArgumentException(text);
            }
            host = t.substring(1, end);
            if (end + 1 < t.length()) {
                if (t.charAt(end + 1) != ':') {
                    throw new IllegalArgumentException(text);
                }
                port = parsePort(t.substring(end + 2), text);
            }
        } else if (t.indexOf(':') >= 0 && t.indexOf(':') == t.lastIndexOf(':')) {
            host = t.substring(0, t.indexOf(':'));
            port = parsePort(t.substring(t.indexOf(':') + 1), text);
        }
        if (host.isEmpty() || t.contains(" ")) {
            throw new IllegalArgumentException(text);
        }
        return InetSocketAddress.createUnresolved(host, port);
    }

    private static int parsePort(String p, String text) {
        try {
            int port = Integer.parseInt(p);
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException(text);
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
