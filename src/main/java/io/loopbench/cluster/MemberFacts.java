package io.loopbench.cluster;

import io.loopbench.engine.process.Environment;
import io.loopbench.system.SystemInfo;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Properties;

/**
 * What a member says about itself when it joins: enough to tell whether two agents are the same hardware and run the
 * same build.
 *
 * @param role             {@code coordinator} or {@code agent}
 * @param hostName         the host's name
 * @param logicalCpus      processors the member's JVM sees
 * @param cpuModel         the CPU's model name (/proc/cpuinfo), or the architecture where there is none
 * @param memoryBytes      the host's memory (MemTotal), or null where unknown
 * @param javaVendor       its JVM's vendor
 * @param javaVersion      its JVM's version
 * @param loopbenchVersion the loopbench build's version, or null where the build recorded none
 * @param gitCommit        the commit it was built from (abbreviated), or null where unknown
 * @param nettyVersion     Netty's version
 */
public record MemberFacts(MemberRole role, String hostName, int logicalCpus, String cpuModel, Long memoryBytes,
                          String javaVendor, String javaVersion, String loopbenchVersion, String gitCommit,
                          String nettyVersion) {

    /** This JVM's facts. */
    public static MemberFacts current(MemberRole role) {
        Environment env = Environment.current();
        return new MemberFacts(role, localHostName(), env.logicalCpus(), SystemInfo.readCpuModel(),
                SystemInfo.readMemTotal(), env.javaVendor(), env.javaVersion(),
                resource("META-INF/build-info.properties", "build.version"),
                resource("git.properties", "git.commit.id.abbrev"), env.nettyVersion());
    }

    /**
     * The hardware as far as a result depends on it: CPU model, logical CPUs and memory. Two agents with the same
     * hardware give comparable figures (a matrix's agent groups must have it).
     */
    public String hardware() {
        return String.format(Locale.ROOT, "%s × %d, %s", cpuModel, logicalCpus,
                memoryBytes == null ? "memory unknown" : Math.round(memoryBytes / (double) (1L << 30)) + " GiB");
    }

    /** This host's name (what an agent goes by unless told otherwise). */
    public static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            // A host whose own name does not resolve (no /etc/hosts entry) still has one.
            String env = System.getenv("HOSTNAME");
            return env != null ? env : "unknown";
        }
    }

    /** A property of a file the build writes into the classes, or null when it is absent. */
    private static String resource(String path, String key) {
        try (InputStream in = MemberFacts.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                return null;
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty(key);
        } catch (IOException e) {
            return null;
        }
    }
}
