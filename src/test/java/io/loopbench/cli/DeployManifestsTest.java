package io.loopbench.cli;

import io.loopbench.agents.ClusterProperties;
import io.loopbench.cluster.ClusterSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/kubernetes, rendered as Kubernetes reads it (every YAML document parsed), checked against the application:
 * the coordinator's environment bound by Spring's own rules into {@code loopbench.cluster.*}, the agents' read by
 * {@code ./loopbench agent}, the headless Service that DNS discovery asks for, the ports, the data volume and the
 * image's entry points. Offline: nothing is applied or built.
 */
class DeployManifestsTest {

    private static final Path DIR = Path.of("deploy/kubernetes");
    /** What Kubernetes would put in the fields the manifests take from the pod and a Secret. */
    private static final String POD_IP = "10.244.1.7";
    private static final String SECRET = "from-the-kubernetes-secret-0123";

    private static final List<Map<String, Object>> documents = new ArrayList<>();

    @BeforeAll
    static void parse() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                try (Reader r = Files.newBufferedReader(f)) {
                    for (Object doc : new Yaml().loadAll(r)) {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> d = (Map<String, Object>) doc;
                        d.put("_file", f.getFileName().toString());
                        documents.add(d);
                    }
                }
            }
        }
    }

    private static Map<String, Object> one(String kind, String name) {
        List<Map<String, Object>> found = documents.stream()
                .filter(d -> kind.equals(d.get("kind")) && name.equals(get(d, "metadata", "name"))).toList();
        assertThat(found).as(kind + " " + name).hasSize(1);
        return found.getFirst();
    }

    @SuppressWarnings("unchecked")
    private static <T> T get(Object node, Object... path) {
        Object n = node;
        for (Object p : path) {
            if (n == null) {
                return null;
            }
            n = p instanceof Integer i ? ((List<Object>) n).get(i) : ((Map<String, Object>) n).get(p);
        }
        return (T) n;
    }

    private static Map<String, Object> container(Map<String, Object> workload) {
        List<Map<String, Object>> containers = get(workload, "spec", "template", "spec", "containers");
        assertThat(containers).hasSize(1);
        return containers.getFirst();
    }

    /** The container's environment as the process would see it, with the pod's IP and the Secret's value. */
    private static Map<String, String> environment(Map<String, Object> container) {
        Map<String, String> env = new HashMap<>();
        List<Map<String, Object>> entries = get(container, "env");
        for (Map<String, Object> e : entries) {
            String name = (String) e.get("name");
            if (e.containsKey("value")) {
                env.put(name, String.valueOf(e.get("value")));
            } else if ("status.podIP".equals(get(e, "valueFrom", "fieldRef", "fieldPath"))) {
                env.put(name, POD_IP);
            } else {
                assertThat((String) get(e, "valueFrom", "secretKeyRef", "name")).isEqualTo("loopbench-cluster");
                assertThat((String) get(e, "valueFrom", "secretKeyRef", "key")).isEqualTo("secret");
                env.put(name, SECRET);
            }
        }
        return env;
    }

    private static List<Integer> containerPorts(Map<String, Object> container) {
        List<Map<String, Object>> ports = get(container, "ports");
        return ports.stream().map(p -> (Integer) p.get("containerPort")).toList();
    }

    @Test
    void theCoordinatorsEnvironmentIsTheApplicationsClusterSettingsWithDnsDiscoveryOfTheHeadlessService() {
        Map<String, Object> service = one("Service", "loopbench-cluster");
        Map<String, Object> coordinator = one("Deployment", "loopbench-coordinator");
        Map<String, String> env = environment(container(coordinator));

        Binder binder = new Binder(ConfigurationPropertySources.from(
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new HashMap<>(env))));
        ClusterProperties p = binder.bindOrCreate("loopbench.cluster", ClusterProperties.class);
        assertThat(p.enabled()).isTrue();
        assertThat(p.settings().violations()).isEmpty();
        assertThat(p.bindAddress()).isEqualTo(POD_IP);
        assertThat(p.secret()).isEqualTo(SECRET);
        assertThat(p.hosts()).isEmpty();
        assertThat(p.dnsQuery()).isEqualTo(get(service, "metadata", "name"));

        assertThat((Object) get(service, "spec", "clusterIP")).isEqualTo("None");
        assertThat((Boolean) get(service, "spec", "publishNotReadyAddresses")).isTrue();
        List<Map<String, Object>> ports = get(service, "spec", "ports");
        assertThat(ports).extracting(q -> q.get("port"), q -> q.get("targetPort")).contains(
                org.assertj.core.groups.Tuple.tuple(p.bindPort(), p.bindPort()),
                org.assertj.core.groups.Tuple.tuple(p.bindPort() + ClusterSettings.FAILURE_DETECTION_PORT_OFFSET,
                        p.bindPort() + ClusterSettings.FAILURE_DETECTION_PORT_OFFSET));
        assertThat(containerPorts(container(coordinator))).containsExactlyInAnyOrder(p.bindPort(),
                p.bindPort() + ClusterSettings.FAILURE_DETECTION_PORT_OFFSET);
        Map<String, String> selector = get(service, "spec", "selector");
        assertThat((Map<String, String>) get(coordinator, "spec", "template", "metadata", "labels"))
                .containsAllEntriesOf(selector);

        // one service holds a data directory: one replica, never two during a rollout, on the claimed volume
        assertThat((Integer) get(coordinator, "spec", "replicas")).isEqualTo(1);
        assertThat((String) get(coordinator, "spec", "strategy", "type")).isEqualTo("Recreate");
        String dataDirectory = binder.bind("loopbench.data-directory", String.class).get();
        List<Map<String, Object>> mounts = get(container(coordinator), "volumeMounts");
        assertThat(mounts).extracting(m -> m.get("mountPath")).containsExactly(dataDirectory);
        assertThat((String) get(coordinator, "spec", "template", "spec", "volumes", 0, "persistentVolumeClaim",
                "claimName")).isEqualTo(get(one("PersistentVolumeClaim", "loopbench-data"), "metadata", "name"));
    }

    @Test
    void theAgentsJoinTheSameClusterThroughTheSameServiceWithTheAgentCommand() throws Exception {
        Map<String, Object> service = one("Service", "loopbench-cluster");
        Map<String, Object> agents = one("StatefulSet", "loopbench-agent");
        Map<String, Object> agent = container(agents);
        assertThat((String) get(agents, "spec", "serviceName")).isEqualTo(get(service, "metadata", "name"));
        assertThat((Map<String, String>) get(agents, "spec", "template", "metadata", "labels"))
                .containsAllEntriesOf(get(service, "spec", "selector"));

        AgentCommand command = new AgentCommand();
        command.environment = environment(agent);
        new CommandLine(command).parseArgs();
        ClusterSettings agentSettings = command.settings();
        Map<String, String> coordinatorEnv = environment(container(one("Deployment", "loopbench-coordinator")));
        ClusterSettings coordinatorSettings = new Binder(ConfigurationPropertySources.from(
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new HashMap<>(coordinatorEnv))))
                .bindOrCreate("loopbench.cluster", ClusterProperties.class).settings();
        assertThat(agentSettings.violations()).isEmpty();
        assertThat(agentSettings).isEqualTo(coordinatorSettings);
        assertThat(containerPorts(agent)).containsExactlyInAnyOrder(agentSettings.bindPort(),
                agentSettings.bindPort() + ClusterSettings.FAILURE_DETECTION_PORT_OFFSET);

        // the same image, started at the command line's entry point, which has an agent command
        assertThat((String) agent.get("image")).isEqualTo(container(one("Deployment", "loopbench-coordinator"))
                .get("image"));
        List<String> cmd = get(agent, "command");
        assertThat(cmd.getLast()).isEqualTo("agent");
        Class<?> main = Class.forName(cmd.get(cmd.size() - 2));
        assertThat(main).isEqualTo(LoopbenchCli.class);
        assertThat(new CommandLine(new LoopbenchCli()).getSubcommands()).containsKey("agent");
    }

    @Test
    void everyClusterVariableIsOneTheApplicationReadsAndTheKustomizationListsEveryManifest() throws IOException {
        List<String> known = ClusterSettings.PROPERTIES.stream().map(ClusterSettings::environmentVariable).toList();
        for (Map<String, Object> d : documents) {
            if (d.get("kind") instanceof String k && (k.equals("Deployment") || k.equals("StatefulSet"))) {
                assertThat(environment(container(d)).keySet()).filteredOn(n -> n.startsWith("LOOPBENCH_CLUSTER_"))
                        .as(k).isSubsetOf(known);
            }
        }
        Map<String, Object> kustomization = documents.stream().filter(d -> "Kustomization".equals(d.get("kind")))
                .findFirst().orElseThrow();
        try (Stream<Path> files = Files.list(DIR)) {
            assertThat((List<String>) get(kustomization, "resources")).containsExactlyInAnyOrderElementsOf(
                    files.map(f -> f.getFileName().toString())
                            .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml")).toList());
        }
        // the image the manifests name is the one the build's image profile makes, with the service's entry point
        String pom = Files.readString(Path.of("pom.xml"));
        String profile = pom.substring(pom.indexOf("<id>image</id>"));
        assertThat(profile).contains("<image>loopbench:${project.version}</image>",
                "<mainClass>io.loopbench.LoopbenchApplication</mainClass>");
        String version = pom.replaceAll("(?s).*?<artifactId>loopbench</artifactId>\\s*<version>([^<]+)</version>.*",
                "$1");
        assertThat((String) container(one("Deployment", "loopbench-coordinator")).get("image"))
                .isEqualTo("loopbench:" + version);
    }
}
