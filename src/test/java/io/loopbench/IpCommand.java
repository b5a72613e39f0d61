package io.loopbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs iproute2's {@code ip} for the tests that build network namespaces (root only). Stateless. */
public final class IpCommand {

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
}
