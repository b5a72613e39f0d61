package io.loopbench.agents;

import io.loopbench.cluster.Agent;
import io.loopbench.cluster.AgentState;
import io.loopbench.cluster.ClusterTestSupport;
import io.loopbench.system.SystemInfo;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

import java.time.Duration;

import static org.hamcrest.Matchers.matchesPattern;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** {@code GET /api/agents} with clustering on: the coordinator joined at start, an agent from another member. */
@WebMvcTest(AgentsController.class)
@Import(AgentsConfiguration.class)
class AgentsApiTest {

    private static final int PORT = ClusterTestSupport.freePort();

    @DynamicPropertySource
    static void cluster(DynamicPropertyRegistry registry) {
        registry.add("loopbench.cluster.enabled", () -> "true");
        registry.add("loopbench.cluster.name", () -> "api");
        registry.add("loopbench.cluster.bind-address", () -> "127.0.0.1");
        registry.add("loopbench.cluster.bind-port", () -> PORT);
        registry.add("loopbench.cluster.secret", () -> ClusterTestSupport.SECRET);
    }

    @Autowired
    MockMvc mvc;
    @Autowired
    AgentDirectory directory;

    @Test
    void listsTheCoordinatorAndEachAgentWithItsFactsAndState() throws Exception {
        mvc.perform(get("/api/agents"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.cluster").value("joined"))
                .andExpect(jsonPath("$.clusterName").value("api"))
                .andExpect(jsonPath("$.coordinatorAddress").value("127.0.0.1:" + PORT))
                .andExpect(jsonPath("$.coordinator.role").value("coordinator"))
                .andExpect(jsonPath("$.agents.length()").value(0));
        try (Agent agent = Agent.join(ClusterTestSupport.agentSettings("api", PORT, ClusterTestSupport.SECRET,
                false), "agent-a", () -> { })) {
            agent.state(AgentState.BUSY);
            ClusterTestSupport.await(Duration.ofSeconds(30), "agent listed busy", () ->
                    directory.view().agents().size() == 1
                            && directory.view().agents().getFirst().state() == AgentState.BUSY);
            mvc.perform(get("/api/agents"))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.agents[0].member").value("agent-a"))
                    .andExpect(jsonPath("$.agents[0].address").value("127.0.0.1"))
                    .andExpect(jsonPath("$.agents[0].state").value("busy"))
                    .andExpect(jsonPath("$.agents[0].facts.role").value("agent"))
                    .andExpect(jsonPath("$.agents[0].facts.logicalCpus")
                            .value(Runtime.getRuntime().availableProcessors()))
                    .andExpect(jsonPath("$.agents[0].facts.cpuModel").value(SystemInfo.current().cpuModel()))
                    .andExpect(jsonPath("$.agents[0].facts.memoryBytes").value(SystemInfo.current().memoryBytes()))
                    .andExpect(jsonPath("$.agents[0].facts.javaVersion").value(System.getProperty("java.version")))
                    .andExpect(jsonPath("$.agents[0].facts.nettyVersion").value(matchesPattern("4\\..+")));
        }
        ClusterTestSupport.await(Duration.ofSeconds(30), "agent gone", () -> directory.view().agents().isEmpty());
    }
}
