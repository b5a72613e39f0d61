package io.loopbench.echo;

import io.loopbench.engine.StandingEchoServer;
import io.loopbench.engine.loop.Transports;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.SpecField;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.spec.Violation;
import io.loopbench.jobs.RunExceptions;
import io.loopbench.runs.RunPolicy;
import io.loopbench.runs.RunService;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Service;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Standing echo servers: started on request, listed with their counters, stopped on request or when the service
 * stops. They live in the service's JVM and are not persisted. Thread-safe.
 */
@Service
public class EchoServerService implements DisposableBean {

    /**
     * A running echo server.
     *
     * @param id          its id
     * @param request     what was asked, defaults filled in
     * @param port        the port it listens on
     * @param transport   the concrete transport
     * @param channel     its Netty channel class
     * @param startedAt   when it started
     * @param counts      what it has echoed so far
     */
    public record View(String id, EchoServerRequest request, int port, Transport transport, String channel,
                       Instant startedAt, StandingEchoServer.Snapshot counts) {
    }

    private record Entry(String id, EchoServerRequest request, StandingEchoServer server, Instant startedAt) {
        View view() {
            return new View(id, request, server.port(), server.transport(), server.channelClass(), startedAt,
                    server.counts());
        }
    }

    /** The most standing echo servers at once: each holds event loops and a port until it is stopped. */
    static final int MAX_SERVERS = 16;
    /** Below this, ports are privileged: the system's own services'. */
    static final int MIN_PORT = 1024;

    private final RunService runs;
    private final Map<String, Entry> servers = new ConcurrentHashMap<>();

    public EchoServerService(RunService runs) {
        this.runs = runs;
    }

    /**
     * @throws InvalidSpecException naming every bad field, or the port when it cannot be bound
     */
    public synchronized View start(EchoServerRequest r) {
        List<Violation> v = new ArrayList<>();
        if (r.port() != 0 && (r.port() < MIN_PORT || r.port() > 65_535)) {
            v.add(new Violation("port", String.valueOf(r.port()), "0 (a free port) or " + MIN_PORT + " … 65,535: "
                    + "not a privileged port, which belongs to the system's own services"));
        }
        if (servers.size() >= MAX_SERVERS) {
            v.add(new Violation("echoServers", String.valueOf(servers.size()), "at most " + MAX_SERVERS
                    + " standing echo servers at once; stop one first"));
        }
        if (r.ioModel() != IoModel.SHARED) {
            v.add(new Violation("ioModel", r.ioModel().label(), "shared: one listening socket is served by one "
                    + "group; several single-thread loops on one port would need SO_REUSEPORT"));
        }
        if (!SpecField.IO_THREADS.range().contains(r.ioThreads())) {
            v.add(new Violation("ioThreads", String.valueOf(r.ioThreads()), SpecField.IO_THREADS.range().text()));
        }
        if (!SpecField.WORK.range().contains(r.work())) {
            v.add(new Violation("work", String.valueOf(r.work()), SpecField.WORK.range().text()));
        } else if (r.work() > 0 && r.payloadBytes() == null) {
            v.add(new Violation("work", String.valueOf(r.work()), "0 unless payloadBytes is given (work runs per "
                    + "message, and messages are cut by size)"));
        }
        Integer payload = r.payloadBytes();
        if (payload != null && !SpecField.PAYLOAD_BYTES.range().contains(payload)) {
            v.add(new Violation("payloadBytes", String.valueOf(r.payloadBytes()),
                    SpecField.PAYLOAD_BYTES.range().text()));
        }
        if (r.transport() == Transport.JDK || !Transports.isAvailable(r.transport())) {
            v.add(new Violation("transport", r.transport().label(), "a Netty transport that loads here"));
        }
        RunPolicy.AddressCheck bind = runs.policy().checkAddress("bindAddress", r.bindAddress(), r.bindAddress());
        if (bind.violation() != null) {
            v.add(bind.violation());
        }
        StandingEchoServer.Config config = new StandingEchoServer.Config(r.protocol(), bind.address(), r.port(),
                r.ioThreads(), r.transport(), r.work(), r.payloadBytes(), r.certsDirectory(), r.tlsProvider());
        v.addAll(config.violations());
        if (!v.isEmpty()) {
            throw new InvalidSpecException(v);
        }
        StandingEchoServer server;
        try {
            server = StandingEchoServer.start(config);
        } catch (RuntimeException e) {
            throw new InvalidSpecException(List.of(new Violation("port", r.bindAddress() + ":" + r.port(),
                    "an address that can be bound here (" + e.getMessage() + ")")));
        }
        Entry e = new Entry(UUID.randomUUID().toString(), r, server, Instant.now());
        servers.put(e.id(), e);
        return e.view();
    }

    public List<View> list() {
        return servers.values().stream().sorted(Comparator.comparing(Entry::startedAt).reversed())
                .map(Entry::view).toList();
    }

    public View get(String id) {
        Entry e = servers.get(id);
        if (e == null) {
            throw new RunExceptions.NotFound("echo server", id);
        }
        return e.view();
    }

    public void stop(String id) {
        Entry e = servers.remove(id);
        if (e == null) {
            throw new RunExceptions.NotFound("echo server", id);
        }
        e.server().close();
    }

    @Override
    public void destroy() {
        servers.keySet().forEach(this::stop);
    }
}
