package io.loopbench.echo;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.List;

/** Standing echo servers, the other end of a run's {@code target} across a real network. */
@RestController
@RequestMapping(path = "/api/echo-servers", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "echo-servers", description = "Standing echo servers for runs from other hosts")
public class EchoServerController {

    private final EchoServerService echo;

    public EchoServerController(EchoServerService echo) {
        this.echo = echo;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Start an echo server (loopback by default)",
            description = "201 with its port. It echoes bytes verbatim, or, with payloadBytes, checks each message "
                    + "and runs the configured work per message. The bind address must be loopback or inside "
                    + "loopbench.network.allowed-cidrs.")
    public ResponseEntity<EchoServerService.View> start(@RequestBody EchoServerRequest request) {
        EchoServerService.View v = echo.start(request);
        return ResponseEntity.created(URI.create("/api/echo-servers/" + v.id())).body(v);
    }

    @GetMapping
    @Operation(summary = "The running echo servers with their counters, newest first")
    public List<EchoServerService.View> list() {
        return echo.list();
    }

    @GetMapping("/{id}")
    @Operation(summary = "One echo server with its counters")
    public EchoServerService.View get(@PathVariable String id) {
        return echo.get(id);
    }

    @DeleteMapping("/{id}")
    @Operation(summary = "Stop an echo server, releasing its loops and sockets")
    public ResponseEntity<Void> stop(@PathVariable String id) {
        echo.stop(id);
        return ResponseEntity.noContent().build();
    }
}
