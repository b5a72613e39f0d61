package io.loopbench.agents;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The agents this service coordinates (docs/deployment.md, "Beyond one machine"). Stateless; any request thread. */
@RestController
@Tag(name = "agents", description = "Agents on other hosts, in the cluster this service coordinates")
public class AgentsController {

    private final AgentDirectory agents;

    public AgentsController(AgentDirectory agents) {
        this.agents = agents;
    }

    @GetMapping(path = "/api/agents", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "The cluster and its agents: each agent's name, address, state (joining, idle, busy) and "
            + "facts (host name, CPUs, JVM, loopbench and Netty versions)",
            description = "With loopbench.cluster.enabled false, {\"cluster\": \"disabled\"} and no agents.")
    public AgentsView agents() {
        return agents.view();
    }
}
