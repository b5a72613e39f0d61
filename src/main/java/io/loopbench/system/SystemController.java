package io.loopbench.system;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** What every result depends on; the same block is stored in every run. */
@RestController
@Tag(name = "system", description = "The machine, OS, JVM and network stack results depend on")
public class SystemController {

    /** Read once: what it describes does not change while the service runs. */
    private final SystemInfo system = SystemInfo.current();

    @GetMapping(path = "/api/system", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "CPU, memory, OS and kernel, JVM and its flags, GC, Netty and Reactor Netty versions, "
            + "native transports (and why not), clock source")
    public SystemInfo system() {
        return system;
    }
}
