package io.loopbench.engine.spec;

import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * A remote echo server to run the client side against, written {@code host:port} or {@code [ipv6]:port}. Parsing
 * does not resolve the host; {@link #address()} does. Immutable.
 */
public record Target(String host, int port) {

    /** The target a text names, or empty when it is not {@code host:port} with a port of 1 … 65535. */
    public static Optional<Target> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            return Optional.empty();
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            return Optional.empty(); // an IPv6 address needs brackets, or the port is ambiguous
        }
        try {
            int port = Integer.parseInt(text.substring(colon + 1));
            return host.isBlank() || port < 1 || port > 65_535 ? Optional.empty() : Optional.of(new Target(host, port));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Resolves the host (a name may resolve to any of its addresses). */
    public InetSocketAddress address() {
        return new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
