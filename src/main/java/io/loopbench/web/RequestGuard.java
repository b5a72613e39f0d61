package io.loopbench.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Lets only this machine's own pages and tools drive the service, before any work is done: a {@code Host} that
 * names another site is refused (a page elsewhere could rebind its DNS name to 127.0.0.1 and drive the API from a
 * visitor's browser), a write whose {@code Origin} is another site is refused (cross-site request forgery), and a
 * body larger than {@code loopbench.security.max-request-body-size} is refused with 413 without being read. Every
 * response says {@code nosniff} and carries a strict Content-Security-Policy (the page runs only its own scripts;
 * API documents such as reports and charts run none). Refusals are RFC 9457 problems. Stateless, thread-safe.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestGuard extends OncePerRequestFilter {

    /** The web page: its own modules, styles and images only. */
    static final String PAGE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    /**
     * API documents (JSON, reports, SVG charts): no script at all; reports' own inline style and charts only; framed
     * only by the service's own page (which shows reports in a frame).
     */
    static final String API_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    private final Set<String> allowedHosts;
    private final long maxBodyBytes;
    private final ObjectMapper json;

    public RequestGuard(Environment environment, ObjectMapper json) {
        SecurityProperties settings = Binder.get(environment)
                .bindOrCreate("loopbench.security", SecurityProperties.class);
        this.allowedHosts = allowedHosts(environment.getProperty("server.address"), settings);
        this.maxBodyBytes = settings.maxRequestBodySize().toBytes();
        this.json = json;
    }

    /** Loopback names, the bind address unless it is a wildcard, and the configured names; lower case. */
    static Set<String> allowedHosts(String bindAddress, SecurityProperties settings) {
        Set<String> hosts = new HashSet<>(Set.of("localhost", "127.0.0.1", "[::1]"));
        if (bindAddress != null && !bindAddress.isBlank() && !Set.of("0.0.0.0", "::", "[::]").contains(bindAddress)) {
            hosts.add(bracketed(bindAddress));
        }
        settings.allowedHosts().forEach(h -> hosts.add(bracketed(h.strip())));
        return Set.copyOf(hosts);
    }

    private static String bracketed(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.contains(":") && !h.startsWith("[") ? "[" + h + "]" : h;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        String path = request.getRequestURI();
        if (!path.startsWith("/swagger-ui") && !path.startsWith("/v3/api-docs")) {
            // Swagger UI's own page needs its inline set-up; everything of loopbench's is held to the policy
            response.setHeader("Content-Security-Policy", path.startsWith("/api/") ? API_POLICY : PAGE_POLICY);
        }
        // HTTP/1.1 requires Host; without one (HTTP/1.0, a test's mock request) the container's view of it counts
        String host = request.getHeader("Host") != null ? request.getHeader("Host")
                : request.getServerName() + ":" + request.getServerPort();
        if (!hostAllowed(host, request.getLocalPort())) {
            refuse(response, HttpStatus.FORBIDDEN, "foreign-host", "Host not allowed", "Host '" + host + "' is not "
                    + "this service: only localhost, 127.0.0.1, [::1], the bind address and the names in "
                    + "loopbench.security.allowed-hosts, with port " + request.getLocalPort()
                    + ", are answered (docs/deployment.md, \"Security\")");
            return;
        }
        if (!SAFE_METHODS.contains(request.getMethod())) {
            Optional<String> foreign = foreignOrigin(request);
            if (foreign.isPresent()) {
                refuse(response, HttpStatus.FORBIDDEN, "foreign-origin", "Cross-site request refused",
                        foreign.get() + ": only this service's own pages may change its state");
                return;
            }
        }
        long length = request.getContentLengthLong();
        if (length > maxBodyBytes) {
            refuse(response, HttpStatus.CONTENT_TOO_LARGE, "body-too-large", "Request body too large",
                    "the body has " + length + " bytes; at most " + maxBodyBytes
                            + " (loopbench.security.max-request-body-size)");
            return;
        }
        chain.doFilter(length < 0 ? new Capped(request, maxBodyBytes) : request, response);
    }

    /** Whether a Host header names this service: an allowed name with the port the request came in on. */
    private boolean hostAllowed(String header, int localPort) {
        if (header == null || header.isBlank()) {
            return false;
        }
        String h = header.strip().toLowerCase(Locale.ROOT);
        int colon = h.lastIndexOf(':');
        String name = h;
        String port = null;
        if (colon > 0 && colon > h.lastIndexOf(']')) {
            name = h.substring(0, colon);
            port = h.substring(colon + 1);
        }
        boolean portMatches = port == null ? localPort == 80 : port.equals(String.valueOf(localPort));
        return portMatches && allowedHosts.contains(name);
    }

    /** Why the request's origin is another site, if it is: its {@code Origin}, or what the browser says of it. */
    private Optional<String> foreignOrigin(HttpServletRequest request) {
        if ("cross-site".equals(request.getHeader("Sec-Fetch-Site"))) {
            return Optional.of("Sec-Fetch-Site is cross-site");
        }
        String origin = request.getHeader("Origin");
        if (origin == null) {
            return Optional.empty(); // not a browser's cross-site request (curl, the tests)
        }
        try {
            URI uri = URI.create(origin);
            int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
            String authority = uri.getHost() == null ? null : uri.getHost() + ":" + port;
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && authority != null
                    && hostAllowed(authority, request.getLocalPort())) {
                return Optional.empty();
            }
        } catch (IllegalArgumentException e) {
            // an unparsable origin ("null" from a sandboxed frame or a file) is another site
        }
        return Optional.of("Origin '" + origin + "' is another site");
    }

    private void refuse(HttpServletResponse response, HttpStatus status, String type, String title, String detail)
            throws IOException {
        ProblemDetail p = ApiProblems.problem(status, type, title, detail);
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(json.writeValueAsBytes(p));
    }

    /** A body of unknown length (chunked), cut off with {@link BodyTooLarge} past the limit. */
    private static final class Capped extends HttpServletRequestWrapper {
        private final long limit;
        private ServletInputStream stream;

        Capped(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream in = super.getInputStream();
                stream = new ServletInputStream() {
                    private long read;

                    @Override
                    public int read() throws IOException {
                        int b = in.read();
                        count(b < 0 ? 0 : 1);
                        return b;
                    }

                    @Override
                    public int read(byte[] buffer, int offset, int length) throws IOException {
                        int n = in.read(buffer, offset, length);
                        count(Math.max(n, 0));
                        return n;
                    }

                    private void count(int n) throws BodyTooLarge {
                        read += n;
                        if (read > limit) {
                            throw new BodyTooLarge(limit);
                        }
                    }

                    @Override
                    public boolean isFinished() {
                        return in.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return in.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        in.setReadListener(listener);
                    }
                };
            }
            return stream;
        }
    }

    /** A streamed body went past the limit; {@link ApiProblems} answers 413. */
    static final class BodyTooLarge extends IOException {
        BodyTooLarge(long limit) {
            super("the body has more than " + limit + " bytes (loopbench.security.max-request-body-size)");
        }
    }
}
