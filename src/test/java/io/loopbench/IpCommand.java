package io.loopbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs iproute2's {@code ip} for the tests that build network namespaces (root only). Stateless. */
public final class IpCommand {

    /**
     * The namespaces the tests make carry their JVM's pid: {@code loopbench-test-PID} (with its veth
     * {@code lbtNa} here) and {@code loopbench-cluster-PID-I} (with its bridge {@code lbcNbr} here), N being the pid
     * modulo 100 000.
     */
    private static final Pattern TEST_NAMESPACE = Pattern.compile("loopbench-(test|cluster)-(\\d+)(-\\d+)?");

    private IpCommand() {
    }

    /** Runs {@code ip args…} and returns its output; throws with that output when it fails or takes over 10 s. */
    public static String ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("ip " + String.join(" ", args) + ": " + out);
        }
        return out;
    }

    /**
     * Removes what a killed test JVM left behind: its namespaces, the processes in them, and its links on this side.
     * A test's {@code @AfterAll} does not run when its JVM is killed, and a link left holding the test's addresses
     * takes the route a later run needs, which then fails to connect. A namespace whose JVM still lives is kept.
     *
     * @return the namespaces removed
     */
    public static List<String> removeLeftoversOfDeadTestJvms() throws IOException, InterruptedException {
        List<String> removed = new ArrayList<>();
        for (String line : ip("netns", "list").lines().toList()) {
            String name = line.split(" ", 2)[0];
            Matcher m = TEST_NAMESPACE.matcher(name);
            if (!m.matches()) {
                continue;
            }
            long pid = Long.parseLong(m.group(2));
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                continue;
            }
            for (String inside : ip("netns", "pids", name).lines().toList()) {
                ProcessHandle.of(Long.parseLong(inside.strip())).ifPresent(ProcessHandle::destroyForcibly);
            }
            ip("netns", "del", name); // takes its end of each veth pair, and so the pair, with it
            String link = m.group(1).equals("test") ? "lbt" + pid % 100_000 + "a" : "lbc" + pid % 100_000 + "br";
            try {
                ip("link", "del", link);
            } catch (IOException e) {
                // gone with the namespace, or never made
            }
            removed.add(name);
        }
        return removed;
    }
}
