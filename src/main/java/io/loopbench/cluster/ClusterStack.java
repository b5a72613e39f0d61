package io.loopbench.cluster;

import org.jgroups.JChannel;
import org.jgroups.protocols.AUTH;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.MFC;
import org.jgroups.protocols.SYM_ENCRYPT;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UFC;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.dns.DNS_PING;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The JGroups protocol stack every member runs, built in code from {@link ClusterSettings} (one stack, so the
 * coordinator and the agents cannot be configured apart): TCP (no IP multicast, which clouds and Kubernetes rarely
 * carry) on the bind address; discovery by the static host list ({@code TCPPING}) or DNS ({@code DNS_PING});
 * failure detection by a socket to each neighbour, which notices a killed process at once ({@code FD_SOCK2}), and by
 * heartbeats, which notice a silent host ({@code FD_ALL3}, {@value #HEARTBEAT_TIMEOUT_MILLIS} ms); optional
 * encryption ({@code SYM_ENCRYPT}, AES/CBC with a key derived from the secret); reliable delivery; authentication of
 * joins and merges ({@code AUTH} with {@link HmacToken}); membership ({@code GMS}); flow control and fragmentation.
 * JGroups' diagnostics (an unauthenticated probe port) are off.
 *
 * <p>Threads: {@link #open} builds an unconnected channel on the calling thread; the caller owns the channel.
 */
public final class ClusterStack {

    /**
     * A host silent for this long is suspected (then checked for {@value #VERIFY_MILLIS} ms) and dropped. Long, since
     * a member measuring keeps its cores busy by design and a false drop aborts its repetition: a killed process is
     * found at once by its socket, so this only delays noticing a host cut off or frozen. At 5 s an agent running a
     * case in a JVM with three others on a 2-core machine with one core taken was dropped (bench/LOG.md).
     */
    static final long HEARTBEAT_TIMEOUT_MILLIS = 15_000;
    static final long HEARTBEAT_INTERVAL_MILLIS = 2_000;
    static final long VERIFY_MILLIS = 1_000;
    static final long JOIN_TIMEOUT_MILLIS = 2_000;
    static final long MERGE_MIN_INTERVAL_MILLIS = 2_000;
    static final long MERGE_MAX_INTERVAL_MILLIS = 5_000;

    private ClusterStack() {
    }

    /** An unconnected channel for these (checked) settings, named {@code memberName} in JGroups' views and logs. */
    public static JChannel open(ClusterSettings settings, String memberName) throws Exception {
        settings.checked();
        InetAddress bind = InetAddress.getByName(settings.bindAddress());
        List<Protocol> stack = new ArrayList<>();
        TCP tcp = new TCP();
        tcp.setBindAddress(bind);
        tcp.setBindPort(settings.bindPort());
        // The configured port or none: a member on another port than the others' host lists name is never found.
        tcp.setPortRange(0);
        // Platform threads, not JGroups' default virtual ones: an agent's virtual-threads execution sizes the JVM's
        // carriers to its ioThreads, and the cluster must neither take the measured ends' carriers nor wait behind
        // them (a carrier held by a blocking read or a busy echo end would stop its heartbeats and answers).
        tcp.useVirtualThreads(false);
        stack.add(tcp);
        stack.add(discovery(settings));
        // Partitions found and merged within seconds: an agent started before its coordinator forms a cluster of its
        // own, which this merges into the coordinator's.
        stack.add(new MERGE3().setMinInterval(MERGE_MIN_INTERVAL_MILLIS).setMaxInterval(MERGE_MAX_INTERVAL_MILLIS));
        stack.add(new FD_SOCK2().setBindAddress(bind));
        stack.add(new FD_ALL3().setTimeout(HEARTBEAT_TIMEOUT_MILLIS).setInterval(HEARTBEAT_INTERVAL_MILLIS));
        stack.add(new VERIFY_SUSPECT2().setTimeout(VERIFY_MILLIS));
        if (settings.encrypt()) {
            // CBC with a random IV per message (JGroups' own recommended transformation); the bare "AES" default
            // would be ECB. Set before the key, which otherwise replaces the transformation by the key's algorithm.
            SYM_ENCRYPT encrypt = new SYM_ENCRYPT();
            encrypt.symAlgorithm("AES/CBC/PKCS5Padding");
            encrypt.symIvLength(16);
            encrypt.setSecretKey(ClusterKeys.encryption(settings.secret()));
            stack.add(encrypt);
        }
        stack.add(new NAKACK2().useMcastXmit(false));
        stack.add(new UNICAST3());
        stack.add(new STABLE());
        AUTH auth = new AUTH();
        HmacToken token = new HmacToken(settings.secret(), settings.name());
        token.setAuth(auth);
        auth.setAuthToken(token);
        stack.add(auth);
        stack.add(new GMS().setJoinTimeout(JOIN_TIMEOUT_MILLIS).printLocalAddress(false));
        stack.add(new MFC());
        stack.add(new UFC());
        stack.add(new FRAG4());
        JChannel channel = new JChannel(stack).name(memberName);
        tcp.getDiagnosticsHandler().setEnabled(false);
        return channel;
    }

    private static Protocol discovery(ClusterSettings settings) {
        if (settings.dnsQuery() != null && !settings.dnsQuery().isBlank()) {
            return new DNS_PING().dnsQuery(settings.dnsQuery()).dnsRecordType("A");
        }
        TCPPING ping = new TCPPING().setPortRange(0);
        if (!settings.hosts().isEmpty()) {
            // As text, so that a name that does not resolve yet (a host still starting) is resolved again later.
            ping.setValue("initial_hosts_str", settings.hostAddresses().stream()
                    .map(ClusterStack::jgroupsHost).collect(Collectors.joining(",")));
        }
        return ping;
    }

    private static String jgroupsHost(InetSocketAddress a) {
        return a.getHostString() + "[" + a.getPort() + "]";
    }
}
