package io.loopbench.agents;

import io.loopbench.cluster.ClusterTestSupport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** {@code loopbench.cluster.*}: off by default, refused whole when on with bad settings. */
class AgentsConfigurationTest {

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withUserConfiguration(AgentsConfiguration.class);

    @Test
    void offByDefaultTheServiceHasNoClusterAndListsNoAgents() throws Exception {
        context.run(c -> {
            assertThat(c).hasNotFailed();
            ClusterProperties p = c.getBean(ClusterProperties.class);
            assertThat(p.enabled()).isFalse();
            assertThat(p.name()).isEqualTo("loopbench");
            assertThat(p.bindPort()).isEqualTo(7800);
            assertThat(c.getBean(AgentDirectory.class).view()).isEqualTo(AgentsView.DISABLED);
            MockMvcBuilders.standaloneSetup(new AgentsController(c.getBean(AgentDirectory.class))).build()
                    .perform(get("/api/agents"))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.cluster").value("disabled"))
                    .andExpect(jsonPath("$.agents.length()").value(0));
        });
    }

    @Test
    void onWithBadSettingsTheStartFailsNamingEachAndNeverShowsTheSecret() {
        context.withPropertyValues("loopbench.cluster.enabled=true", "loopbench.cluster.bind-address=0.0.0.0",
                        "loopbench.cluster.hosts=a:1,b:99999", "loopbench.cluster.dns-query=x.svc",
                        "loopbench.cluster.secret=short-secret")
                .run(c -> {
                    assertThat(c).hasFailed();
                    String message = c.getStartupFailure().getCause().getMessage();
                    assertThat(message).contains("cluster.bindAddress", "cluster.hosts × cluster.dnsQuery",
                            "cluster.hosts = b:99999", "cluster.secret").doesNotContain("short-secret");
                });
    }

    @Test
    void theSecretStaysOutOfTheSettingsText() {
        ClusterProperties p = new ClusterProperties(true, "n", "127.0.0.1", ClusterTestSupport.freePort(),
                java.util.List.of(), null, ClusterTestSupport.SECRET, false);
        assertThat(p.toString()).doesNotContain(ClusterTestSupport.SECRET).contains("(hidden)");
    }
}
