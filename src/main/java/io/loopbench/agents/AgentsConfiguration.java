package io.loopbench.agents;

import io.loopbench.cluster.Coordinator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the agents feature: with {@code loopbench.cluster.enabled} the service joins the cluster as its coordinator
 * at start (invalid settings stop the start, naming each one) and leaves it when it stops. Run once, by Spring's
 * start thread.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ClusterProperties.class)
class AgentsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AgentsConfiguration.class);

    @Bean(destroyMethod = "close")
    AgentDirectory agentDirectory(ClusterProperties properties) throws Exception {
        if (!properties.enabled()) {
            return new AgentDirectory(null);
        }
        Coordinator coordinator = Coordinator.join(properties.settings(), "coordinator");
        log.info("Joined cluster '{}' as its coordinator at {} ({})", properties.name(),
                coordinator.endpoint(), properties.settings());
        return new AgentDirectory(coordinator);
    }
}
