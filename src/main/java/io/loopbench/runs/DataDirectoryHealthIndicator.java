package io.loopbench.runs;

import io.loopbench.engine.loop.Transports;
import io.loopbench.storage.JsonFileStore;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code runStore} health: DOWN when the data directory cannot be written (runs could not be stored); details name
 * the directory, any run or matrix files skipped as unreadable, and which native transports load here.
 */
@Component("runStoreHealthIndicator")
class DataDirectoryHealthIndicator extends AbstractHealthIndicator {

    private final RunStore store;
    private final List<JsonFileStore<?>> others;

    DataDirectoryHealthIndicator(RunStore store, List<JsonFileStore<?>> stores) {
        this.store = store;
        this.others = stores;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        Path dir = store.directory().toAbsolutePath();
        Path probe = Files.createTempFile(dir, ".health", ".tmp");
        Files.delete(probe);
        builder.up()
                .withDetail("dataDirectory", dir.toString())
                .withDetail("storedRuns", store.all().size())
                .withDetail("corruptFiles", others.stream().flatMap(st -> st.corruptFiles().stream()
                        .map(f -> store.directory().relativize(st.directory()).resolve(f).toString())).toList())
                .withDetail("nativeTransports", Transports.availability());
    }
}
